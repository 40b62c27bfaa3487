/**
 * Seeded fuzzing of TQL, over HTTP: a sample of the fuzz inputs, compiled and refused, and the
 * engine probes go to POST /v1/tql; every answer is 200 with a result or a 4xx problem, never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../src/context.js";
import { initialize } from "../src/setup/initialize.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";
import { pick, prng, SEED } from "./helpers/tql-fuzz-inputs.js";
import { compiledInputs, ENGINE_PROBES, getOutcomes, show } from "./helpers/tql-fuzz-outcomes.js";

const HTTP_INPUTS = 120;

describe("TQL fuzzing: over HTTP", () => {
  const dir = makeTempDir("vigil-tql-fuzz-http-");
  let http: TestService;
  let key: string;

  beforeAll(async () => {
    http = await startTestService(dir.path, {
      VIGIL_RATE_LIMIT_PER_MINUTE: "100000",
      VIGIL_TQL_MAX_EXECUTION_SECONDS: "2",
      VIGIL_TQL_MAX_MEMORY_BYTES: String(256 * 1024 * 1024),
    });
    const setup = await initialize({
      ctx: systemCtx(http.deps.domain),
      input: { email: "fuzz@example.com", password: "correct horse battery" },
    });
    key = setup.apiKey ?? "";
  });
  afterAll(async () => {
    await http?.stop();
    dir.remove();
  });

  it(`answers ${HTTP_INPUTS} fuzz inputs with 200 JSON or a 4xx problem, never a 5xx`, {
    timeout: 240_000,
  }, async () => {
    const rand = prng(SEED ^ 0x5eed);
    const compiled = compiledInputs();
    const refused = getOutcomes()
      .filter((o) => !o.compiled)
      .map((o) => o.text);
    const inputs: string[] = [];
    for (let i = 0; i < HTTP_INPUTS / 2; i++)
      inputs.push(pick(rand, compiled), pick(rand, refused));
    inputs.push(...ENGINE_PROBES, "", " ", "\u0000", "x".repeat(50_001));
    const problems: string[] = [];
    for (const query of inputs) {
      const response = await http.fetch("/v1/tql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ query }),
      });
      const text = await response.text();
      const type = response.headers.get("content-type") ?? "";
      if (response.status === 200) {
        const body = JSON.parse(text) as Record<string, unknown>;
        if (
          !type.startsWith("application/json") ||
          !Array.isArray(body.rows) ||
          !Array.isArray(body.columns)
        )
          problems.push(`200 without a result for ${show(query)}: ${text.slice(0, 200)}`);
        continue;
      }
      if (response.status < 400 || response.status >= 500) {
        problems.push(`${response.status} for ${show(query)}: ${text.slice(0, 200)}`);
        continue;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      const missing = ["type", "title", "status", "detail", "code", "requestId"].filter(
        (field) => !(field in body),
      );
      if (
        !type.startsWith("application/problem+json") ||
        missing.length > 0 ||
        body.status !== response.status
      )
        problems.push(
          `malformed ${response.status} problem (missing ${missing.join(", ")}) for ${show(query)}: ${text.slice(0, 200)}`,
        );
    }
    expect(inputs.length).toBeGreaterThanOrEqual(HTTP_INPUTS);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});
