import { afterAll, describe, expect, it } from "vitest";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { DERIVED_TABLES, INTERNAL_TABLES } from "../src/telemetry/internal-tables.js";
import { TELEMETRY_TABLE_NAMES } from "../src/telemetry/tables.js";
import { startServeProcess } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const OWNER = { email: "restart@example.com", password: "correct horse battery" };

const login = async (url: string) => {
  const response = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(OWNER),
  });
  expect(response.status).toBe(200);
  return (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
};

describe("restart on the same data directory", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("keeps users, keys and telemetry tables with their rows across real processes", async () => {
    const args = ["--data-dir", dir.path];
    const first = await startServeProcess(args, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
    });
    let key: string;
    try {
      const cookie = await login(first.url);
      const projects = (await (
        await fetch(`${first.url}/api/projects`, { headers: { cookie } })
      ).json()) as {
        data: { id: string }[];
      };
      const created = await fetch(`${first.url}/api/projects/${projects.data[0]?.id}/api-keys`, {
        method: "POST",
        headers: { cookie, origin: first.url, "content-type": "application/json" },
        body: JSON.stringify({ role: "full" }),
      });
      key = ((await created.json()) as { key: string }).key;
    } finally {
      expect(await first.stop()).toBe(0);
    }

    // Write a telemetry row between runs, through the engine on the same directory.
    const engine = createChdbExecutor({ path: `${dir.path}/telemetry`, database: "vigil" });
    await engine.insert("logs", [
      {
        project_id: "prj_x",
        id: "log_1",
        // Within the default retention whatever day the test runs.
        timestamp: new Date().toISOString().slice(0, 19).replace("T", " "),
        message: "kept",
      },
    ]);
    await engine.close();

    // Second start without the admin variables: nothing is re-created, everything is still there.
    const second = await startServeProcess(args);
    try {
      expect(second.stderr()).not.toContain("No users yet");
      await login(second.url);
      expect(
        (await fetch(`${second.url}/v1/whoami`, { headers: { "x-api-key": key } })).status,
      ).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }

    const reopened = createChdbExecutor({ path: `${dir.path}/telemetry`, database: "vigil" });
    try {
      const tables = await reopened.query<{ name: string }>(
        "SELECT name FROM system.tables WHERE database = 'vigil' ORDER BY name",
      );
      expect(tables.map((t) => t.name)).toEqual(
        [
          ...TELEMETRY_TABLE_NAMES,
          ...[...INTERNAL_TABLES, ...DERIVED_TABLES].map((t) => t.name),
          ...DERIVED_TABLES.flatMap((t) => t.views.map((v) => v.name)),
        ].sort(),
      );
      expect(await reopened.query("SELECT message FROM vigil.logs")).toEqual([{ message: "kept" }]);
    } finally {
      await reopened.close();
    }
  });
});
