import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";
import {
  type Client,
  type Endpoint,
  endpointsOf,
  expectUrlProblem,
  type Page,
  type Problem,
  setUp,
} from "./helpers/webhook-api.js";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.js";

// The service with the SSRF guard on, as it is by default: verification refuses private targets,
// and the writes that make the server POST share a per-user budget (docs/webhooks.md).
describe("webhook verification with the SSRF guard on", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Client;
  let projectId: string;
  let hooks: WebhookReceiver;
  const blocked: Problem[] = [];

  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    ({ service, owner, projectId } = await setUp(dir.path, {
      VIGIL_WEBHOOKS_WRITES_PER_MINUTE: "6",
    }));
  });
  afterAll(async () => {
    await service?.stop();
    await hooks?.close();
    dir.remove();
  });

  it("refuses loopback, private and link-local URLs without sending them anything", async () => {
    const base = endpointsOf(projectId);
    for (const url of [
      `https://127.0.0.1:${hooks.port}/hook`,
      `https://localhost:${hooks.port}/hook`,
      `https://[::1]:${hooks.port}/hook`,
      "https://10.0.0.1/hook",
      "https://169.254.169.254/latest/meta-data",
    ]) {
      const reply = await owner.post<Problem>(base, { url, events: ["monitor.down"] });
      expectUrlProblem(reply, /private, loopback or reserved address/);
      blocked.push(reply.body);
    }
    expect(hooks.requests).toHaveLength(0);
    expect((await owner.get<Page<Endpoint>>(base)).body.data).toEqual([]);
  });

  it("a blocked URL's problem carries verification.reason blocked_address and names the setting", () => {
    expect(blocked.length).toBe(5);
    for (const problem of blocked) {
      expect(problem.verification?.reason, problem.detail).toBe("blocked_address");
      // The problem says how to allow private targets.
      expect(problem.detail).toMatch(/set VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS=true/);
    }
  });

  it("limits the writes that make the server POST, per user (VIGIL_WEBHOOKS_WRITES_PER_MINUTE)", async () => {
    // Five blocked creations above, one more is allowed, then 429 with Retry-After.
    const base = endpointsOf(projectId);
    const body = { url: "https://10.0.0.2/hook", events: ["monitor.down"] };
    expect((await owner.post<Problem>(base, body)).status).toBe(400);
    const limited = await owner.post<Problem>(base, body);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    // One budget for creations, edits and tests alike.
    expect((await owner.post<Problem>(`${base}/whe_none/test`, {})).status).toBe(429);
    expect((await owner.patch<Problem>(`${base}/whe_none`, { isActive: false })).status).toBe(429);
    // Reads are not limited.
    expect((await owner.get<Page<Endpoint>>(base)).status).toBe(200);
  });
});
