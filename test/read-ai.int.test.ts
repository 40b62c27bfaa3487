import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AiDashboard, Recommendation } from "../src/contracts/ai.js";
import { LEAKED } from "./helpers/ai-fixtures.js";
import { logId, MIN, traceId } from "./helpers/ai-rows.js";
import { startAiService } from "./helpers/ai-service.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

// An hour-aligned window three hours back: 60 one-minute buckets, far from "now".
const T0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000;
const WINDOW = `from=${T0}&to=${T0 + 60 * MIN}`;
const iso = (ms: number) => new Date(ms).toISOString();

describe("GET /v1/ai/dashboard", () => {
  const dir = makeTempDir();
  let service: TestService;
  const keys = { a: "", b: "", c: "", logsOnly: "", revoked: "", limited: "" };

  beforeAll(async () => {
    const started = await startAiService(dir.path, T0);
    service = started.service;
    Object.assign(keys, started.keys);
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const get = (query: string, key: string | null = keys.a) =>
    service.fetch(`/v1/ai/dashboard${query ? `?${query}` : ""}`, {
      headers: key === null ? {} : { "x-api-key": key },
    });
  const dashboard = async (query = WINDOW, key = keys.a) => {
    const response = await get(query, key);
    expect(response.status).toBe(200);
    return (await response.json()) as AiDashboard;
  };
  const find = (body: AiDashboard, id: string): Recommendation => {
    const found = body.recommendations.find((r) => r.id === id);
    if (!found)
      throw new Error(`no recommendation ${id} in ${body.recommendations.map((r) => r.id)}`);
    return found;
  };

  it("sums calls, tokens, cost and latency overall, by model, provider and operation", async () => {
    const body = await dashboard();
    expect(body).toMatchObject({ from: iso(T0), to: iso(T0 + 60 * MIN), bucketSeconds: 60 });
    expect(body.summary).toEqual({
      calls: 190,
      errors: 10,
      errorRate: 0.0526,
      tokens: {
        input: 213_000,
        output: 31_000,
        cacheRead: 30_000,
        cacheCreation: 4000,
        total: 244_000,
      },
      costUsd: 1.05006,
      latencyMs: expect.objectContaining({}),
    });
    const models = body.byModel.map((m) => [
      m.provider,
      m.requestModel,
      m.responseModel,
      m.calls,
      m.costUsd,
    ]);
    expect(models).toEqual([
      ["openai", "gpt-4o", "gpt-4o-2024-08-06", 40, 0.8],
      ["anthropic", "claude-sonnet-4-5", "claude-sonnet-4-5-20250929", 20, 0.2],
      ["openai", "gpt-4o-mini", "gpt-4o-mini-2024-07-18", 100, 0.05],
      ["openai", "text-embedding-3-small", "text-embedding-3-small", 30, 0.00006],
    ]);
    expect(body.byModel[1]).toMatchObject({
      errors: 0,
      tokens: { input: 40_000, output: 6000, cacheRead: 30_000, cacheCreation: 0, total: 46_000 },
      latencyMs: { avg: 1050, p50: 1050, p95: 1905 },
    });
    expect(body.byModel[0]).toMatchObject({ errors: 10, errorRate: 0.25 });
    expect(body.byProvider.map((p) => [p.provider, p.calls, p.costUsd, p.tokens.total])).toEqual([
      ["openai", 170, 0.85006, 198_000],
      ["anthropic", 20, 0.2, 46_000],
    ]);
    expect(body.topOperations.map((o) => [o.operation, o.aiOperation, o.calls])).toEqual([
      ["chat gpt-4o", "chat", 40],
      ["chat claude", "chat", 20],
      ["classify", "chat", 100],
      ["embeddings text-embedding-3-small", "embeddings", 30],
    ]);
  });

  it("gives a zero-filled cost and token series", async () => {
    const { series } = await dashboard();
    expect(series).toHaveLength(60);
    const point = (time: number, values: number[]) => {
      const [calls, errors, inputTokens, outputTokens, totalTokens, costUsd] = values;
      return { time: iso(time), calls, errors, inputTokens, outputTokens, totalTokens, costUsd };
    };
    expect(series[0]).toEqual(point(T0, [0, 0, 0, 0, 0, 0]));
    expect(series[5]).toEqual(point(T0 + 5 * MIN, [40, 10, 120_000, 20_000, 140_000, 0.8]));
    expect(series.filter((p) => p.calls > 0).map((p) => p.time)).toEqual(
      [5, 6, 7, 8].map((m) => iso(T0 + m * MIN)),
    );
  });

  it("lists every finding once, most severe first, then by id", async () => {
    const body = await dashboard();
    expect(body.contexts).toEqual(["performance", "security", "cost", "quality"]);
    expect(body.analyzers).toHaveLength(13);
    expect(body.recommendations.map((r) => `${r.severity} ${r.id}`)).toEqual([
      "critical security.secret-in-logs:aws-access-key",
      "critical security.suspicious-path:vcs-metadata",
      "high performance.error-hot-spot:POST /api/orders",
      "high quality.llm-errors:openai/gpt-4o",
      "high security.secret-in-logs:github-token",
      "high security.secret-in-logs:password",
      "medium cost.expensive-model:openai/gpt-4o",
      "medium cost.expensive-operation:prompt:summarize-ticket",
      "medium performance.slow-endpoint:GET /api/reports/monthly",
      "medium quality.content-filter:openai/gpt-4o-mini",
      "medium quality.empty-outputs:anthropic/claude-sonnet-4-5",
      "low cost.prompt-cache:openai/gpt-4o",
      "low performance.n-plus-one:orders-service:SELECT * FROM order_items WHERE order_id = ?",
      "low performance.n-plus-one:orders-service:SELECT name FROM users WHERE id = $1",
      "low quality.truncated-responses:openai/gpt-4o-mini",
      `low security.auth-spike:${iso(T0 + 30 * MIN)}`,
      "low security.suspicious-path:path-traversal",
      "info security.suspicious-path:env-file",
      "info security.suspicious-path:wordpress",
    ]);
    // The same data gives the same answer.
    expect((await dashboard()).recommendations).toEqual(body.recommendations);
  });

  it("reports slow endpoints with their share of server time, and error hot spots", async () => {
    const body = await dashboard(`${WINDOW}&context=performance`);
    expect(find(body, "performance.slow-endpoint:GET /api/reports/monthly").evidence).toEqual({
      metrics: {
        requests: 30,
        avgMs: 1500,
        p95UpperBoundMs: 1500,
        maxMs: 1900,
        totalTimeMs: 45_000,
        serviceTimeMs: 106_090,
        shareOfServiceTime: 0.4242,
      },
      labels: { service: "api-gateway", method: "GET", route: "/api/reports/monthly" },
      breakdown: [{ dimension: "status_code", value: "200", count: 30 }],
      excerpts: [],
      traceIds: [traceId(11), traceId(12), traceId(10)],
      logIds: [],
    });
    const hot = find(body, "performance.error-hot-spot:POST /api/orders");
    expect(hot.evidence).toMatchObject({
      metrics: { requests: 100, errors: 31, errorRate: 0.31 },
      labels: { service: "orders-service", method: "POST", route: "/api/orders" },
      breakdown: [
        { dimension: "status_code", value: "201", count: 69 },
        { dimension: "status_code", value: "500", count: 31 },
      ],
      traceIds: [traceId(21), traceId(20)],
    });
    expect(hot.action).toBeTruthy();
  });

  it("finds N+1 statements repeated 5+ times under one parent, literals normalized", async () => {
    const body = await dashboard(`${WINDOW}&context=performance`);
    const items = find(
      body,
      "performance.n-plus-one:orders-service:SELECT * FROM order_items WHERE order_id = ?",
    );
    expect(items.evidence).toMatchObject({
      metrics: { traces: 2, maxRepeats: 6, avgRepeats: 5.5, totalQueries: 11, totalDbTimeMs: 22 },
      excerpts: ["SELECT * FROM order_items WHERE order_id = ?"],
      traceIds: [traceId(1), traceId(2)],
    });
    const legacy = find(
      body,
      "performance.n-plus-one:orders-service:SELECT name FROM users WHERE id = $1",
    );
    expect(legacy.evidence.metrics).toMatchObject({ traces: 1, maxRepeats: 5 });
    expect(legacy.evidence.traceIds).toEqual([traceId(5)]);
  });

  it("flags expensive models and prompts, and uncached large prompts", async () => {
    const body = await dashboard(`${WINDOW}&context=cost`);
    expect(find(body, "cost.expensive-model:openai/gpt-4o").evidence).toMatchObject({
      metrics: {
        calls: 40,
        costUsd: 0.8,
        shareOfSpend: 0.7619,
        costPerCallUsd: 0.02,
        totalSpendUsd: 1.05006,
        avgInputTokens: 3000,
        avgOutputTokens: 500,
        cheapestCostPerCallUsd: 0.000002,
      },
      labels: { provider: "openai", model: "gpt-4o" },
      traceIds: [traceId(1000), traceId(1001), traceId(1002)],
    });
    expect(find(body, "cost.expensive-operation:prompt:summarize-ticket").evidence).toMatchObject({
      metrics: { calls: 40, shareOfSpend: 0.7619, avgInputTokens: 3000 },
      labels: { prompt: "summarize-ticket", attribute: "gen_ai.prompt.name" },
    });
    const cache = find(body, "cost.prompt-cache:openai/gpt-4o");
    expect(cache.evidence.metrics).toEqual({
      calls: 40,
      inputTokens: 120_000,
      cacheReadTokens: 0,
      cacheCreationTokens: 4000,
      cacheHitRatio: 0,
      avgInputTokens: 3000,
    });
    expect(cache.action).toContain("OpenAI caches automatically");
  });

  it("finds 401/403 spikes against the median bucket, with routes and sources", async () => {
    const body = await dashboard(`${WINDOW}&context=security`);
    const spike = find(body, `security.auth-spike:${iso(T0 + 30 * MIN)}`);
    expect(spike.evidence).toEqual({
      metrics: {
        total: 85,
        peak: 60,
        buckets: 2,
        bucketSeconds: 60,
        medianPerBucket: 2,
        threshold: 20,
      },
      labels: { from: iso(T0 + 30 * MIN), to: iso(T0 + 32 * MIN), peakAt: iso(T0 + 30 * MIN) },
      breakdown: [
        { dimension: "status_code", value: "401", count: 75 },
        { dimension: "status_code", value: "403", count: 10 },
        { dimension: "route", value: "POST /login", count: 75 },
        { dimension: "route", value: "GET /admin", count: 10 },
        { dimension: "client_address", value: "203.0.113.7", count: 3 },
        { dimension: "client_address", value: "198.51.100.2", count: 1 },
      ],
      excerpts: [],
      traceIds: [traceId(30), traceId(31), traceId(32)],
      logIds: [],
    });
    expect(body.recommendations.filter((r) => r.analyzer === "security.auth-spike")).toHaveLength(
      1,
    );
  });

  it("classifies probing paths, decoded, with a 2xx answer as critical", async () => {
    const body = await dashboard(`${WINDOW}&context=security`);
    expect(find(body, "security.suspicious-path:vcs-metadata").evidence).toMatchObject({
      metrics: { requests: 1, succeeded: 1, distinctPaths: 1 },
      breakdown: [{ dimension: "path", value: "/.git/config", count: 1 }],
      traceIds: [traceId(50)],
    });
    expect(find(body, "security.suspicious-path:path-traversal").evidence).toMatchObject({
      metrics: { requests: 12, succeeded: 0, distinctPaths: 2 },
      breakdown: [
        { dimension: "path", value: "/static/..%2f..%2fetc/passwd", count: 11 },
        { dimension: "path", value: "/download?file=../../etc/passwd", count: 1 },
      ],
      traceIds: [traceId(71), traceId(70), traceId(69)],
    });
    expect(find(body, "security.suspicious-path:env-file").evidence.breakdown).toEqual([
      { dimension: "path", value: "/.env", count: 3 },
      { dimension: "client_address", value: "198.51.100.9", count: 3 },
    ]);
  });

  it("reports secrets in logs by kind and log id, never the secret itself", async () => {
    const response = await get(`${WINDOW}&context=security`);
    const text = await response.text();
    for (const secret of Object.values(LEAKED)) expect(text).not.toContain(secret);
    const body = JSON.parse(text) as AiDashboard;
    const at = T0 + 50 * MIN;
    expect(find(body, "security.secret-in-logs:password").evidence).toEqual({
      metrics: { records: 1 },
      labels: {
        kind: "password",
        services: "orders-service",
        firstSeen: iso(at),
        lastSeen: iso(at),
      },
      breakdown: [],
      excerpts: ["connecting to db with password=[REDACTED:password]"],
      traceIds: [traceId(90)],
      logIds: [logId(at, 1)],
    });
    expect(find(body, "security.secret-in-logs:github-token").evidence).toMatchObject({
      excerpts: ["calling github http.request.header.authorization=token [REDACTED:github-token]"],
      logIds: [logId(at + 1, 2)],
    });
    expect(find(body, "security.secret-in-logs:aws-access-key").evidence).toMatchObject({
      labels: { services: "uploader" },
      excerpts: ["uploading with [REDACTED:aws-access-key]"],
      logIds: [logId(at + 2, 3)],
    });
  });

  it("reports LLM errors, truncated, filtered and empty answers per model", async () => {
    const body = await dashboard(`${WINDOW}&context=quality`);
    expect(find(body, "quality.llm-errors:openai/gpt-4o").evidence).toMatchObject({
      metrics: { calls: 40, errors: 10, rate: 0.25 },
      breakdown: [{ dimension: "status_message", value: "429 rate limited", count: 10 }],
      traceIds: [traceId(1009), traceId(1008), traceId(1007)],
    });
    expect(find(body, "quality.truncated-responses:openai/gpt-4o-mini").evidence).toMatchObject({
      metrics: { calls: 100, truncated: 8, rate: 0.08 },
      traceIds: [traceId(1207), traceId(1206), traceId(1205)],
    });
    expect(find(body, "quality.content-filter:openai/gpt-4o-mini").evidence).toMatchObject({
      metrics: { calls: 100, filtered: 5, rate: 0.05 },
      breakdown: [{ dimension: "finish_reason", value: "content_filter", count: 5 }],
    });
    // The 30 embedding calls without output are not "empty answers".
    expect(find(body, "quality.empty-outputs:anthropic/claude-sonnet-4-5").evidence).toMatchObject({
      metrics: { calls: 20, empty: 5, rate: 0.25 },
      traceIds: [traceId(1104), traceId(1103), traceId(1102)],
    });
    expect(body.recommendations.map((r) => r.id).filter((id) => id.includes("embedding"))).toEqual(
      [],
    );
  });

  it("runs only the analyzers of the requested context", async () => {
    for (const context of ["performance", "security", "cost", "quality"]) {
      const body = await dashboard(`${WINDOW}&context=${context}`);
      expect(body.contexts).toEqual([context]);
      expect(body.analyzers.every((a) => a.context === context)).toBe(true);
      expect(body.recommendations.length).toBeGreaterThan(0);
      expect(body.recommendations.every((r) => r.context === context)).toBe(true);
      expect(body.summary.calls).toBe(190);
    }
  });

  it("answers 400 naming the parameter for a bad context or window", async () => {
    for (const [query, field] of [
      ["context=nope", "context"],
      ["time_range=5x", "time_range"],
      ["from=yesterday", "from"],
      ["colour=red", "colour"],
    ]) {
      const response = await get(query ?? "");
      expect(response.status, query).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      const problem = (await response.json()) as { errors: { field: string }[] };
      expect(problem.errors.map((e) => e.field)).toContain(field);
    }
  });

  it("defaults to the last 24 hours", async () => {
    const body = await dashboard("");
    expect(body.bucketSeconds).toBe(900);
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(24 * 3_600_000);
    expect(body.summary.calls).toBe(190);
  });

  it("stays quiet just below every threshold, and shows only the key's project", async () => {
    const b = await dashboard(WINDOW, keys.b);
    expect(b.recommendations).toEqual([]);
    expect(b.byModel.map((m) => m.requestModel)).toEqual(["b-model", "b-cheap", "b-large"]);
    const a = await dashboard(WINDOW, keys.a);
    expect(JSON.stringify(a)).not.toMatch(/b-model|b-cheap|b-gateway|b-provider/);
    const c = await dashboard(WINDOW, keys.c);
    expect(c.summary).toMatchObject({
      calls: 0,
      costUsd: 0,
      latencyMs: { avg: 0, p50: 0, p95: 0 },
    });
    expect(c.byModel).toEqual([]);
    expect(c.series).toHaveLength(60);
    expect(c.recommendations).toEqual([]);
  });

  it("needs a valid, unrevoked key with ai:read, and rate-limits it", async () => {
    expect((await get(WINDOW, null)).status).toBe(401);
    expect((await get(WINDOW, "vgl_notarealkeynotarealkey1234")).status).toBe(401);
    expect((await get(WINDOW, keys.revoked)).status).toBe(401);
    expect((await get(WINDOW, keys.logsOnly)).status).toBe(403);
    // Any /v1 request counts against the key's 100 a minute.
    for (let i = 0; i < 100; i++) {
      await service.fetch("/v1/nothing-here", { headers: { "x-api-key": keys.limited } });
    }
    const limited = await get(WINDOW, keys.limited);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });
});
