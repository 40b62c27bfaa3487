import { beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  type CreatedEndpoint,
  type Endpoint,
  endpointsOf,
  expectServiceHeaders,
  expectUrlProblem,
  ISO,
  type Problem,
  sleep,
  useWebhookApiSuite,
  VERIFY_BODY,
  verified,
} from "./helpers/webhook-api.js";

// Creating an endpoint and changing its URL: the signed verification request, why a refused
// one failed, and the input checked before anything is sent (docs/webhooks.md).

describe("webhook management API: creation and verification", () => {
  const suite = useWebhookApiSuite();
  const {
    receiver,
    freshProject,
    create,
    list,
    deliveries,
    publish,
    secrets,
    failedVerifications,
  } = suite;
  let owner: Client;
  beforeAll(() => {
    ({ owner } = suite.state());
  });

  it("creates an endpoint once its URL answered the signed verification request", async () => {
    const { projectId: project } = await freshProject();
    expect(await list(project)).toEqual([]);
    const hooks = await receiver();
    const started = Date.now();
    const reply = await owner.post<CreatedEndpoint>(endpointsOf(project), {
      url: `${hooks.url}/hook`,
      events: ["monitor.down", "error.created"],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const created = reply.body;
    secrets.push(created.secret);
    expect(created).toEqual({
      id: expect.stringMatching(/^whe_/),
      projectId: project,
      url: `${hooks.url}/hook`,
      events: ["monitor.down", "error.created"],
      isActive: true,
      status: "enabled",
      createdAt: expect.stringMatching(ISO),
      updatedAt: created.createdAt,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(Buffer.from(created.secret.slice("whsec_".length), "base64")).toHaveLength(32);

    // Exactly one verification POST, before saving, signed with the new secret.
    expect(hooks.requests).toHaveLength(1);
    const [verification] = hooks.requests;
    expectServiceHeaders(verification, "endpoint.verify");
    expect(verification?.path).toBe("/hook");
    expect(verification?.body).toBe(VERIFY_BODY);
    expect(verified(verification, created.secret)).toEqual({ type: "endpoint.verify" });

    const { secret: _secret, ...view } = created;
    expect(await list(project)).toEqual([view]);
    expect((await deliveries(project, created.id)).data).toEqual([]);

    // Any 2xx verifies; events subscribed twice are kept once.
    const accepting = await receiver(() => ({ status: 204 }));
    const second = await create(project, `${accepting.url}/other`, [
      "monitor.down",
      "error.created",
      "monitor.down",
    ]);
    expect(second.events).toEqual(["monitor.down", "error.created"]);
    expect(second.secret).not.toBe(created.secret);
    expect(verified(accepting.requests[0], second.secret)).toEqual({ type: "endpoint.verify" });
    expect((await list(project)).map((e) => e.id)).toEqual([created.id, second.id]);
  });

  it("refuses a URL that does not answer the verification with a 2xx, saying why", async () => {
    const { projectId: project } = await freshProject();
    const failing = await receiver(() => ({ status: 500, body: "not today" }));
    const reply = await owner.post<Problem>(endpointsOf(project), {
      url: `${failing.url}/hook`,
      events: ["monitor.down"],
    });
    expectUrlProblem(reply, /verification failed: the endpoint answered HTTP 500/);
    failedVerifications.push({ reason: "status", problem: reply.body });
    expect(failing.requests).toHaveLength(1);
    expectServiceHeaders(failing.requests[0], "endpoint.verify");
    expect(failing.requests[0]?.body).toBe(VERIFY_BODY);

    // A redirect is an answer that is not a 2xx, and it is not followed.
    const target = await receiver();
    const redirecting = await receiver(() => ({
      status: 301,
      headers: { location: `${target.url}/final` },
    }));
    const moved = await owner.post<Problem>(endpointsOf(project), {
      url: `${redirecting.url}/hook`,
      events: ["monitor.down"],
    });
    expectUrlProblem(moved, /HTTP 301.*redirects are not followed/);
    failedVerifications.push({ reason: "status", problem: moved.body });
    expect(redirecting.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);

    const unresolvable = await owner.post<Problem>(endpointsOf(project), {
      url: "https://nonexistent.invalid/hook",
      events: ["monitor.down"],
    });
    expectUrlProblem(unresolvable, /host name could not be resolved/);
    failedVerifications.push({ reason: "dns", problem: unresolvable.body });

    // Nothing was saved.
    expect(await list(project)).toEqual([]);
  });

  it("gives up on a verification answer that takes longer than 8 s", {
    timeout: 20_000,
  }, async () => {
    const { projectId: project } = await freshProject();
    const slow = await receiver(() => ({ status: 200, delayMs: 9_000 }));
    const started = Date.now();
    const reply = await owner.post<Problem>(endpointsOf(project), {
      url: `${slow.url}/hook`,
      events: ["monitor.down"],
    });
    const elapsed = Date.now() - started;
    expectUrlProblem(reply, /did not answer within 8 s/);
    failedVerifications.push({ reason: "timeout", problem: reply.body });
    expect(elapsed).toBeGreaterThanOrEqual(7_500);
    expect(elapsed).toBeLessThan(9_000);
    expect(slow.requests).toHaveLength(1);
    expect(await list(project)).toEqual([]);
  });

  it("rejects invalid input with a 400 naming the field, before sending anything", async () => {
    const { projectId: project } = await freshProject();
    const hooks = await receiver();
    const url = `${hooks.url}/hook`;
    const cases: [body: Record<string, unknown>, field: string, text: RegExp][] = [
      [{ url: url.replace("https:", "http:"), events: ["monitor.down"] }, "url", /https:\/\//],
      [
        { url: url.replace("https://", "https://user:pass@"), events: ["monitor.down"] },
        "url",
        /user name or password/,
      ],
      [{ url: "not a url", events: ["monitor.down"] }, "url", /not a valid URL/],
      [{ events: ["monitor.down"] }, "url", /./],
      [{ url, events: [] }, "events", /at least one/],
      [{ url }, "events", /./],
      [{ url, events: ["monitor.dwn"] }, "events.0", /did you mean 'monitor.down'/],
      [
        { url, events: ["monitor.down", "eror.created"] },
        "events.1",
        /did you mean 'error.created'/,
      ],
      [{ url, events: ["endpoint.verify"] }, "events.0", /cannot be subscribed/],
      [{ url, events: ["monitor.down"], secret: "whsec_mine" }, "secret", /not a known field/],
      [{ url, events: ["monitor.down"], isActive: false }, "isActive", /not a known field/],
    ];
    for (const [body, field, text] of cases) {
      const reply = await owner.post<Problem>(endpointsOf(project), body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.contentType).toMatch(/^application\/problem\+json/);
      expect(
        reply.body.errors?.map((e) => e.field),
        JSON.stringify(reply.body),
      ).toContain(field);
      expect(JSON.stringify(reply.body.errors)).toMatch(text);
    }
    expect(hooks.requests).toHaveLength(0);
    expect(await list(project)).toEqual([]);

    const endpoint = await create(project, url);
    const before = await list(project);
    const path = `${endpointsOf(project)}/${endpoint.id}`;
    const patches: [body: Record<string, unknown>, field: string, text: RegExp][] = [
      [{ isActive: false, secret: "whsec_mine" }, "secret", /not a known field/],
      [{ status: "disabled" }, "status", /not a known field/],
      [{ isActive: "no" }, "isActive", /./],
      [{ url: url.replace("https:", "http:") }, "url", /https:\/\//],
      [{ url: url.replace("https://", "https://u:p@") }, "url", /user name or password/],
      [{ events: [] }, "events", /at least one/],
      [{ events: ["monitor.recoverd"] }, "events.0", /did you mean 'monitor.recovered'/],
      [{ events: ["endpoint.verify"] }, "events.0", /cannot be subscribed/],
    ];
    for (const [body, field, text] of patches) {
      const reply = await owner.patch<Problem>(path, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.contentType).toMatch(/^application\/problem\+json/);
      expect(
        reply.body.errors?.map((e) => e.field),
        JSON.stringify(reply.body),
      ).toContain(field);
      expect(JSON.stringify(reply.body.errors)).toMatch(text);
    }
    // Only the creation's verification reached the receiver; nothing changed.
    expect(hooks.requests).toHaveLength(1);
    expect(await list(project)).toEqual(before);
  });

  it("verifies a changed URL again with the same secret and keeps the old URL when that fails", async () => {
    const { projectId: project } = await freshProject();
    const first = await receiver();
    const endpoint = await create(project, `${first.url}/hook`);
    const path = `${endpointsOf(project)}/${endpoint.id}`;

    const second = await receiver();
    const moved = await owner.patch<Endpoint>(path, { url: `${second.url}/moved` });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ url: `${second.url}/moved`, status: "enabled" });
    expect(second.requests).toHaveLength(1);
    expectServiceHeaders(second.requests[0], "endpoint.verify");
    expect(second.requests[0]?.body).toBe(VERIFY_BODY);
    expect(verified(second.requests[0], endpoint.secret)).toEqual({ type: "endpoint.verify" });

    // A failing new URL: 400, and none of the change is applied.
    const failing = await receiver(() => ({ status: 503 }));
    const refused = await owner.patch<Problem>(path, {
      url: `${failing.url}/broken`,
      isActive: false,
      events: ["error.created"],
    });
    expectUrlProblem(refused, /HTTP 503/);
    failedVerifications.push({ reason: "status", problem: refused.body });
    expect(verified(failing.requests[0], endpoint.secret)).toEqual({ type: "endpoint.verify" });
    expect(failing.requests).toHaveLength(1);
    expect(await list(project)).toEqual([moved.body]);

    // The same URL again is not a change: no verification.
    expect((await owner.patch<Endpoint>(path, { url: `${second.url}/moved` })).status).toBe(200);
    expect(second.requests).toHaveLength(1);

    await publish(project, "monitor.down", { n: 1 });
    const [, delivered] = await second.waitFor(2);
    expect(verified(delivered, endpoint.secret)).toMatchObject({ event: "monitor.down" });
    expect(first.requests).toHaveLength(1);

    // Changing the events: only the new subscription is delivered.
    const changed = await owner.patch<Endpoint>(path, { events: ["error.created"] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ events: ["error.created"], url: `${second.url}/moved` });
    expect(second.requests).toHaveLength(2);
    await publish(project, "monitor.down", { n: 2 });
    await publish(project, "error.created", { n: 3 });
    const [, , third] = await second.waitFor(3);
    expectServiceHeaders(third, "error.created");
    expect(verified(third, endpoint.secret)).toEqual({
      event: "error.created",
      data: { n: 3 },
      attempt: 1,
    });
    await sleep(500);
    expect(second.requests).toHaveLength(3);
  });

  it("a failed verification's problem carries verification.reason", () => {
    expect(failedVerifications.length).toBeGreaterThanOrEqual(4);
    for (const { reason, problem } of failedVerifications)
      expect(problem.verification, problem.detail).toMatchObject({
        reason,
        durationMs: expect.any(Number),
      });
  });

  // Runs last: it scans every response of the suite.
  it("reveals each secret only in its creation response, and never logs one", () => {
    suite.expectSecretsKept(["GET", "PATCH", "POST"]);
  });
});
