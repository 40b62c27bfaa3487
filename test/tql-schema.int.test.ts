import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TqlCatalog, type TqlResult } from "../src/contracts/tql.js";
import { PROJECT_COLUMN, TELEMETRY_TABLES } from "../src/telemetry/tables.js";
import { COMBINATORS, FUNCTIONS } from "../src/tql/functions.js";
import { addKey } from "./helpers/projects.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/** GET /v1/tql/schema: what the editor completes from, straight from the compiler's definitions. */
describe("GET /v1/tql/schema", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let projectId: string;
  let readKey: string;
  let ingestKey: string;
  let schema: TqlCatalog;

  const get = (path: string, key: string, headers: Record<string, string> = {}) =>
    service.fetch(path, { headers: { "x-api-key": key, ...headers } });

  beforeAll(async () => {
    ({ service, owner, viewer, outsider, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    }));
    readKey = await addKey(service, projectId, { name: "reader", role: "read_only" });
    ingestKey = await addKey(service, projectId, { name: "ingest", role: "ingest" });
    const response = await get("/v1/tql/schema", readKey);
    expect(response.status).toBe(200);
    schema = TqlCatalog.parse(await response.json());
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("lists the six tables with their columns, without the project column", () => {
    expect(schema.tables.map((t) => t.name)).toEqual(TELEMETRY_TABLES.map((t) => t.name));
    for (const table of TELEMETRY_TABLES) {
      const listed = schema.tables.find((t) => t.name === table.name);
      expect(listed?.description).toBe(table.description);
      expect(listed?.columns).toEqual(
        table.columns
          .filter((c) => c.name !== PROJECT_COLUMN)
          .map(({ name, type, description }) => ({ name, type, description })),
      );
    }
    expect(JSON.stringify(schema.tables)).not.toContain(`"${PROJECT_COLUMN}"`);
  });

  it("gives each column the type a query over it returns", async () => {
    for (const table of schema.tables) {
      const query = `SELECT ${table.columns.map((c) => c.name).join(", ")} FROM ${table.name} LIMIT 1`;
      const response = await service.fetch("/v1/tql", {
        method: "POST",
        headers: { "x-api-key": readKey, "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
      const result = (await response.json()) as TqlResult;
      expect(response.status, JSON.stringify(result)).toBe(200);
      expect(result.columns, table.name).toEqual(
        table.columns.map(({ name, type }) => ({ name, type })),
      );
    }
  });

  it("lists every allowed function, the combinators and the reserved words", () => {
    expect(schema.functions.map((f) => f.name)).toEqual(FUNCTIONS.map((f) => f.name));
    const byName = new Map(schema.functions.map((f) => [f.name, f]));
    expect(byName.get("quantile")).toMatchObject({
      category: "aggregate",
      aggregate: true,
      arguments: "(0–1)(1)",
      minArgs: 1,
      maxArgs: 1,
      params: { min: 0, max: 1 },
      lambda: false,
    });
    expect(byName.get("concat")).toMatchObject({ category: "string", maxArgs: null, params: null });
    expect(byName.get("arrayMap")).toMatchObject({ lambda: true });
    expect(schema.functions.every((f) => f.description.length > 0)).toBe(true);
    expect(schema.combinators.map((c) => c.suffix)).toEqual(COMBINATORS.map((c) => c.suffix));
    expect(schema.combinators.find((c) => c.suffix === "If")).toMatchObject({ extraArgs: 1 });
    expect(schema.keywords).toEqual(expect.arrayContaining(["SELECT", "FROM", "WHERE", "LIMIT"]));
  });

  it("is cacheable: an ETag (304 on If-None-Match), private caching, compressed", async () => {
    const first = await get("/v1/tql/schema", readKey, { "accept-encoding": "br" });
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"tql-[\w-]+-br"$/);
    expect(first.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(first.headers.get("content-encoding")).toBe("br");
    expect(first.headers.get("content-type")).toContain("application/json");
    expect(TqlCatalog.parse(await first.json())).toEqual(schema);

    const again = await get("/v1/tql/schema", readKey, {
      "accept-encoding": "br",
      "if-none-match": etag,
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const plain = await get("/v1/tql/schema", readKey, { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("etag")).toBe(etag.replace("-br", ""));
    expect(TqlCatalog.parse(await plain.json())).toEqual(schema);
  });

  it("needs the tql:query permission (403) and a key (401)", async () => {
    const refused = await get("/v1/tql/schema", ingestKey);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toContain("tql:query");
    const anonymous = await service.fetch("/v1/tql/schema");
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();
  });

  it("answers members through the dashboard's session mount; outsiders get 404", async () => {
    const path = `/api/projects/${projectId}/v1/tql/schema`;
    for (const member of [owner, viewer]) {
      const response = await member.get(path);
      expect(response.status).toBe(200);
      expect(TqlCatalog.parse(await response.json())).toEqual(schema);
    }
    const foreign = await outsider.get(path);
    expect(foreign.status).toBe(404);
    await foreign.arrayBuffer();
    const anonymous = await service.fetch(path);
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();
  });
});
