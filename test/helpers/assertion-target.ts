import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Agent } from "undici";
import { afterAll, beforeAll, expect } from "vitest";
import { type AssertionInput, CreateMonitorInput } from "../../src/contracts/monitors.js";
import { createOutboundAgent } from "../../src/lib/http/outbound-agent.js";
import type { CheckResult } from "../../src/monitors/check-result.js";
import { type HttpDefinition, toDefinition } from "../../src/monitors/definition.js";
import { runCheck } from "../../src/monitors/runner.js";

// A local target (/json, /text, /status?code=, any ?delay=) and the runner aimed at it, shared by
// the assertion tests (monitor-assertions, monitor-assertion-rules).

/** Written by hand so number texts (1.50, a 20-digit id) reach the client exactly as here. */
export const JSON_TEXT =
  '{"id":42,"name":"Widget","price":1.50,"big":12345678901234567890,"tags":["a","b"],' +
  '"nested":{"a":1,"b":[1,2]},"items":[{"id":"first"},{"id":"second"}],"empty":"",' +
  '"nothing":null,"flag":true}';
export const TEXT = "Hello, World! status ok";

export interface StepInput {
  url: string;
  assertions: AssertionInput[];
}

/** A readable test title (vitest would read "$.name" inside %j as a parameter reference). */
export const label = (a: AssertionInput) =>
  [a.type, "path" in a ? a.path : "name" in a ? a.name : "", a.operator, JSON.stringify(a.value)]
    .filter((part) => part !== "")
    .join(" ");
export const titled = <T extends [AssertionInput, ...unknown[]]>(rows: T[]) =>
  rows.map((r) => [label(r[0]), ...r] as [string, ...T]);

/**
 * Starts the target before the file's tests and stops it after; returns how to run a check
 * against it.
 */
export function useAssertionTarget() {
  let server: Server;
  let base: string;
  let agent: Agent;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const reply = () => {
        switch (url.pathname) {
          case "/json":
            res.writeHead(200, {
              "Content-Type": "application/json; charset=utf-8",
              "X-Custom": "Value-CaseSensitive",
              "X-Count": "5",
            });
            res.end(JSON_TEXT);
            return;
          case "/text":
            res.writeHead(200, { "content-type": "text/plain" }).end(TEXT);
            return;
          case "/status":
            res.writeHead(Number(url.searchParams.get("code"))).end();
            return;
          default:
            res.writeHead(404).end("not found");
        }
      };
      setTimeout(reply, Number(url.searchParams.get("delay") ?? 0));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    agent = createOutboundAgent({ allowPrivateNetworks: true });
  });

  afterAll(async () => {
    await agent.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const clock = { now: () => new Date("2025-01-02T03:04:05.678Z") };

  /** Runs a monitor through the same schema the API uses, so every row is a definition a user could save. */
  function check(steps: StepInput[], timeoutSeconds = 5): Promise<CheckResult> {
    const definition = toDefinition(
      CreateMonitorInput.parse({
        name: "assertions",
        type: steps.length === 1 ? "api" : "flow",
        timeoutSeconds,
        steps: steps.map((step) => ({
          ...step,
          url: step.url.startsWith("/") ? base + step.url : step.url,
        })),
      }),
    ) as HttpDefinition;
    return runCheck(definition, {
      dispatcher: agent,
      clock,
      maxResponseBytes: 1 << 20,
      storedBodyBytes: 1024,
    });
  }

  async function assertOne(path: string, assertion: AssertionInput) {
    const result = await check([{ url: path, assertions: [assertion] }]);
    const step = result.steps[0];
    expect(step?.transportError).toBeNull();
    const evaluated = step?.assertions[0];
    if (!evaluated) throw new Error("no assertion result");
    expect(result.passed).toBe(evaluated.passed);
    return evaluated;
  }

  return { check, assertOne };
}
