import { readFileSync } from "node:fs";
import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type RouteModule, V1_ROUTES } from "../src/server/server.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const EXAMPLES = JSON.parse(
  readFileSync(new URL("../src/server/openapi-examples.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

/** Routes that may go without an example. */
const OPTIONAL = new Set(["GET /v1/whoami"]);

interface GetRoute {
  /** "GET /v1/logs/{logId}": the OpenAPI path, as the examples file keys it. */
  key: string;
  path: string;
  schema: z.ZodType;
}

interface OpenApiDocument {
  paths: Record<
    string,
    { get?: { responses?: Record<string, { content?: Record<string, { example?: unknown }> }> } }
  >;
}

describe("the OpenAPI examples of the GET /v1 routes", () => {
  const dir = makeTempDir();
  const routes: GetRoute[] = [];
  let service: TestService;
  let document: OpenApiDocument;

  // Each module is registered inside a scope whose onRoute hook records the route's own
  // 200 zod schema, so the test sees the routes the real server has, not a hand-kept list.
  const collect = (route: RouteOptions) => {
    const schema = (route.schema?.response as Record<string, unknown> | undefined)?.[200];
    if (route.method !== "GET" || !(schema instanceof z.ZodType)) return;
    const path = route.url.replace(/:(\w+)/g, "{$1}");
    routes.push({ key: `GET ${path}`, path, schema });
  };
  const recording = (module: RouteModule): RouteModule => {
    return (deps) => async (app) => {
      app.addHook("onRoute", collect);
      await app.register(module(deps));
    };
  };

  beforeAll(async () => {
    service = await startTestService(dir.path, {}, { v1Routes: V1_ROUTES.map(recording) });
    document = (await (await service.fetch("/openapi.json")).json()) as OpenApiDocument;
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("finds the read routes", () => {
    expect(routes.map((r) => r.key)).toEqual(
      expect.arrayContaining(["GET /v1/logs", "GET /v1/traces/{traceId}", "GET /v1/traffic"]),
    );
  });

  it("has an example for every GET /v1 route", () => {
    const missing = routes.filter((r) => !OPTIONAL.has(r.key) && !(r.key in EXAMPLES));
    expect(missing.map((r) => r.key)).toEqual([]);
  });

  it("has no example for a route that does not exist", () => {
    const known = new Set(routes.map((r) => r.key));
    expect(Object.keys(EXAMPLES).filter((key) => !known.has(key))).toEqual([]);
  });

  it("has examples that parse with the route's 200 schema, unchanged", () => {
    for (const { key, schema } of routes) {
      if (!(key in EXAMPLES)) continue;
      const example = EXAMPLES[key];
      const result = schema.safeParse(example);
      expect(result.error?.issues ?? [], key).toEqual([]);
      // Parsing strips unknown keys: a field the schema no longer has would show up here.
      expect(result.data, key).toEqual(example);
    }
  });

  it("serves each example in /openapi.json as the 200 application/json example", () => {
    for (const { key, path } of routes) {
      if (!(key in EXAMPLES)) continue;
      const media = document.paths[path]?.get?.responses?.["200"]?.content?.["application/json"];
      expect(media?.example, key).toEqual(EXAMPLES[key]);
    }
  });
});
