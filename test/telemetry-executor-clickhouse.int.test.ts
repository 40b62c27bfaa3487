import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnavailableError } from "../src/lib/domain-errors.js";
import { createClickHouseExecutor } from "../src/telemetry/clickhouse/clickhouse-executor.js";
import { INSERT_FORMATS } from "../src/telemetry/clickhouse/insert-formats.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { INTERNAL_TABLES } from "../src/telemetry/internal-tables.js";
import { TELEMETRY_TABLES } from "../src/telemetry/tables.js";
import { type ClickHouseShim, startClickHouseShim } from "./helpers/clickhouse-shim.js";
import { startShimProcess } from "./helpers/clickhouse-shim-process.js";
import { sampleRow, telemetryExecutorContract } from "./helpers/telemetry-executor-contract.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const USER = "vigil";
/** Rows older than the 30-day TTL may vanish at any merge: written rows carry the present time. */
const NOW = new Date().toISOString().replace("T", " ").replace("Z", "");
const PASSWORD = "shim password ✓";

describe("TelemetryExecutor contract on ClickHouse over HTTP (chDB-backed shim)", () => {
  const dir = makeTempDir("vigil-executor-clickhouse-");
  let shim: ClickHouseShim;
  let executor: TelemetryExecutor;
  const open = () =>
    createClickHouseExecutor({
      url: shim.url,
      database: "contract",
      user: USER,
      password: PASSWORD,
    });
  beforeAll(async () => {
    shim = await startClickHouseShim({ dataDir: dir.path, user: USER, password: PASSWORD });
    executor = open();
  });
  afterAll(async () => {
    await executor?.close();
    await shim?.close();
    dir.remove();
  });
  telemetryExecutorContract({ executor: () => executor, open });

  it("sends settings and parameters as URL parameters, credentials in a header", async () => {
    const before = shim.requests.length;
    await executor.query("SELECT {v:String} AS v", {
      params: { v: "x" },
      settings: { max_threads: 2, use_query_cache: false },
      adHoc: true,
    });
    const [sent] = shim.requests.slice(before);
    expect(sent?.sql).toBe("SELECT {v:String} AS v \nFORMAT JSONEachRow");
    expect(sent?.params).toEqual({ v: "x" });
    expect(sent?.settings).toMatchObject({
      priority: "10",
      max_threads: "2",
      use_query_cache: "0",
      output_format_json_quote_64bit_integers: "0",
    });
    await expect(executor.query("SELECT 1", { settings: { "x; DROP": 1 } })).rejects.toThrow(
      /Invalid ClickHouse setting name/,
    );
  });

  it("keeps a read connection free of ad-hoc queries, and writes off the read connections", async () => {
    // 4 connections: 1 for writes, 3 for reads, of which ad-hoc queries may hold 2.
    const small = createClickHouseExecutor({
      url: shim.url,
      database: "contract",
      user: USER,
      password: PASSWORD,
      maxConnections: 4,
    });
    try {
      const started = performance.now();
      const adHoc = [1, 2, 3].map((n) =>
        small.query<{ n: number }>(`SELECT sleep(0.6), ${n} AS n`, { adHoc: true }),
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(small.stats?.().running?.length).toBe(2);
      expect(await small.query("SELECT 1 AS bounded")).toEqual([{ bounded: 1 }]);
      expect(
        await small.insert("logs", [{ project_id: "lanes", timestamp: NOW, message: "m" }]),
      ).toEqual({
        rowsWritten: 1,
      });
      expect(performance.now() - started).toBeLessThan(500);
      expect((await Promise.all(adHoc)).map((rows) => rows[0]?.n)).toEqual([1, 2, 3]);
      // The third waited for one of the first two.
      expect(performance.now() - started).toBeGreaterThanOrEqual(1150);
    } finally {
      await small.close();
    }
  });

  it("runs writes at priority 1 with the column list named once", async () => {
    const before = shim.requests.length;
    await executor.insert("logs", [{ project_id: "p", timestamp: NOW, message: "a" }]);
    await executor.command(`ALTER TABLE contract.logs MODIFY COMMENT 'logs'`);
    const [insert, command] = shim.requests.slice(before);
    expect(insert?.sql).toBe(
      "INSERT INTO `contract`.`logs` (`project_id`, `timestamp`, `message`) FORMAT JSONCompactEachRow",
    );
    expect(insert?.settings.priority).toBe("1");
    expect(insert?.settings.async_insert).toBeUndefined();
    expect(command?.settings.priority).toBe("1");
  });

  it("asks for async inserts waiting for their flush, and gzip bodies, when configured", async () => {
    const tuned = createClickHouseExecutor({
      url: shim.url,
      database: "contract",
      user: USER,
      password: PASSWORD,
      asyncInsert: true,
      compressInserts: true,
      cluster: "vigil_cluster",
    });
    try {
      const before = shim.requests.length;
      const rows = Array.from({ length: 200 }, (_, i) => ({
        project_id: "gz",
        timestamp: NOW,
        message: `m${i}`,
      }));
      expect(await tuned.insert("logs", rows)).toEqual({ rowsWritten: 200 });
      const [sent] = shim.requests.slice(before);
      expect(sent?.contentEncoding).toBe("gzip");
      expect(sent?.settings).toMatchObject({
        async_insert: "1",
        wait_for_async_insert: "1",
        insert_distributed_sync: "1",
      });
      const [count] = await tuned.query<{ n: number }>(
        "SELECT count() AS n FROM contract.logs WHERE project_id = 'gz'",
      );
      expect(count?.n).toBe(200);
    } finally {
      await tuned.close();
    }
  });

  it("stores the same values whichever insert format it sends", async () => {
    for (const table of [...TELEMETRY_TABLES, ...INTERNAL_TABLES]) {
      const row = { ...sampleRow(table), project_id: "formats" };
      for (const insertFormat of INSERT_FORMATS) {
        const writer = createClickHouseExecutor({
          url: shim.url,
          database: "contract",
          user: USER,
          password: PASSWORD,
          insertFormat,
        });
        try {
          await writer.command(`TRUNCATE TABLE contract.${table.name}`);
          expect(await writer.insert(table.name, [row])).toEqual({ rowsWritten: 1 });
          const rows = await writer.query(`SELECT * FROM contract.${table.name}`);
          expect(rows, `${table.name} in ${insertFormat}`).toEqual([row]);
        } finally {
          await writer.close();
        }
      }
    }
  });

  it("turns refused credentials into UnavailableError naming the server, never the password", async () => {
    const wrong = createClickHouseExecutor({
      url: shim.url,
      database: "contract",
      user: USER,
      password: "wrong",
    });
    try {
      const error = await wrong.ping().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error?.message).toContain(`The telemetry store at ${shim.url}`);
      expect(error?.message).toContain("refused the credentials");
      expect(error?.message).not.toContain("wrong");
    } finally {
      await wrong.close();
    }
  });

  it("answers the HTTP interface's own requests as ClickHouse does", async () => {
    const ping = await fetch(`${shim.url}/ping`);
    expect(ping.status).toBe(200);
    expect(await ping.text()).toBe("Ok.\n");
    const auth = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;
    const failed = await fetch(`${shim.url}/?query_id=q1`, {
      method: "POST",
      headers: { authorization: auth },
      body: "SELECT nosuch",
    });
    expect(failed.status).toBe(404);
    expect(failed.headers.get("x-clickhouse-exception-code")).toBe("47");
    expect(failed.headers.get("x-clickhouse-query-id")).toBe("q1");
    expect(await failed.text()).toMatch(
      /^Code: 47\. DB::Exception: .*\(UNKNOWN_IDENTIFIER\) \(version [\d.]+\)\n$/s,
    );
    const select = `${shim.url}/?query=${encodeURIComponent("SELECT 1 AS one FORMAT JSONEachRow")}`;
    const wrongKey = await fetch(select, {
      headers: { "x-clickhouse-user": USER, "x-clickhouse-key": "wrong" },
    });
    expect(wrongKey.status).toBe(403);
    expect(wrongKey.headers.get("x-clickhouse-exception-code")).toBe("516");
    await wrongKey.text();
    const ok = await fetch(select, { headers: { authorization: auth } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^application\/json/);
    expect(JSON.parse(ok.headers.get("x-clickhouse-summary") ?? "{}")).toMatchObject({
      read_rows: "1",
    });
    expect(await ok.text()).toBe('{"one":1}\n');
    const gzipped = await fetch(`${shim.url}/?enable_http_compression=1`, {
      method: "POST",
      headers: { authorization: auth, "accept-encoding": "gzip" },
      body: "SELECT 'compressed' AS c FORMAT JSONEachRow",
    });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(await gzipped.text()).toBe('{"c":"compressed"}\n');
    const anonymous = await fetch(`${shim.url}/`, { method: "POST", body: "SELECT 1" });
    expect(anonymous.status).toBe(403);
    expect(await anonymous.text()).toMatch(/\(AUTHENTICATION_FAILED\)/);
  });
});

describe("ClickHouse adapter transport", () => {
  const dir = makeTempDir("vigil-executor-clickhouse-tls-");
  const tlsDir = new URL("./fixtures/tls/", import.meta.url);
  const ca = readFileSync(new URL("ca.pem", tlsDir), "utf8");
  let shim: ClickHouseShim;
  beforeAll(async () => {
    shim = await startClickHouseShim({
      dataDir: dir.path,
      tls: {
        key: readFileSync(new URL("receiver.key", tlsDir)),
        cert: readFileSync(new URL("receiver.pem", tlsDir)),
      },
    });
  });
  afterAll(async () => {
    await shim?.close();
    dir.remove();
  });

  it("reaches an https:// server through the configured CA, and refuses it without", async () => {
    expect(shim.url).toMatch(/^https:/);
    const trusted = createClickHouseExecutor({ url: shim.url, database: "tls", ca });
    const untrusted = createClickHouseExecutor({ url: shim.url, database: "tls" });
    try {
      expect(await trusted.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
      const error = await untrusted.ping().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error?.message).toMatch(
        /could not be reached \((SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO)/,
      );
    } finally {
      await Promise.all([trusted.close(), untrusted.close()]);
    }
  });

  it("turns a refused connection into UnavailableError naming the URL", async () => {
    // A port nothing listens on: bind one, note it, close it.
    const { createServer } = await import("node:net");
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const down = createClickHouseExecutor({ url: `http://127.0.0.1:${port}`, database: "x" });
    try {
      for (const work of [down.ping(), down.query("SELECT 1"), down.insert("logs", [{ a: 1 }])]) {
        const error = await work.then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(error).toBeInstanceOf(UnavailableError);
        expect(error?.message).toBe(
          `The telemetry store at http://127.0.0.1:${port} could not be reached (ECONNREFUSED); retry later`,
        );
      }
    } finally {
      await down.close();
    }
  });
});

describe("the shim as a process of its own", () => {
  const dir = makeTempDir("vigil-shim-process-");
  afterAll(() => dir.remove());

  it("prints its URL as one JSON line, serves, and exits 0 on SIGTERM", async () => {
    const shim = await startShimProcess(dir.path, {
      VIGIL_SHIM_USER: "node",
      VIGIL_SHIM_PASSWORD: "pw",
    });
    const { url } = shim;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const executor = createClickHouseExecutor({ url, database: "p", user: "node", password: "pw" });
    try {
      expect(await executor.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    } finally {
      await executor.close();
    }
    expect(await shim.stop()).toBe(0);
  });
});

const REAL_URL = process.env.VIGIL_TEST_CLICKHOUSE_URL;

describe.skipIf(REAL_URL === undefined)(
  "TelemetryExecutor contract on a real ClickHouse server (skipped: VIGIL_TEST_CLICKHOUSE_URL is not set)",
  () => {
    const database = `vigil_contract_${Date.now().toString(36)}`;
    const open = () =>
      createClickHouseExecutor({
        url: REAL_URL ?? "",
        database,
        user: process.env.VIGIL_TEST_CLICKHOUSE_USER,
        password: process.env.VIGIL_TEST_CLICKHOUSE_PASSWORD,
      });
    let executor: TelemetryExecutor;
    beforeAll(() => {
      executor = open();
    });
    afterAll(async () => {
      await executor?.command(`DROP DATABASE IF EXISTS ${database}`).catch(() => undefined);
      await executor?.close();
    });
    telemetryExecutorContract({ executor: () => executor, open });
  },
);
