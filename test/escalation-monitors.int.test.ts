import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EscalationPolicyView, IncidentEscalationView } from "../src/contracts/escalation.js";
import type { IncidentDetailView } from "../src/contracts/incidents.js";
import type { Problem } from "../src/contracts/pagination.js";
import { mintAcknowledgeLink } from "../src/incidents/ack-links.js";
import { addProjectWithKey } from "./helpers/projects.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/** Monitors' escalationPolicyId over HTTP, and a monitor's outage starting its escalation. */
describe("escalation policies on monitors", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;
  let orgId: string;
  let target: Server;
  let url: string;
  let healthy: string;
  let policy: EscalationPolicyView;

  const api = (path: string, project = projectId) => `/api/projects/${project}${path}`;
  const ok = async <T>(response: Response, status = 200): Promise<T> => {
    const body = (await response.json()) as T;
    expect(response.status, JSON.stringify(body)).toBe(status);
    return body;
  };
  const fields = async (response: Response) => {
    const problem = (await response.json()) as Problem;
    expect(response.status, JSON.stringify(problem)).toBe(400);
    return (problem.errors ?? []).map((e) => e.field);
  };
  const monitor = (change: Record<string, unknown> = {}) => ({
    name: "Checkout",
    type: "api",
    frequency: "1h",
    alertAfter: 1,
    steps: [{ url }],
    ...change,
  });

  beforeAll(async () => {
    target = createServer((request, response) =>
      request.url === "/ok"
        ? response.writeHead(200).end("ok")
        : response.writeHead(503).end("down"),
    );
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
    healthy = `http://127.0.0.1:${(target.address() as AddressInfo).port}/ok`;
    ({ service, owner, projectId, orgId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    }));
    const hook = await ok<{ id: string }>(
      await owner.post(api("/channels"), { name: "Hook", type: "webhook", settings: {} }),
      201,
    );
    policy = await ok<EscalationPolicyView>(
      await owner.post(api("/escalation-policies"), {
        name: "On call",
        steps: [
          { delayMinutes: 0, channelIds: [hook.id] },
          { delayMinutes: 30, channelIds: [hook.id] },
        ],
      }),
      201,
    );
  });
  afterAll(async () => {
    await service?.stop();
    await new Promise((resolve) => target?.close(resolve));
    dir.remove();
  });

  it("takes only a policy of the monitor's project, on create and update", async () => {
    expect(
      await fields(await owner.post(api("/monitors"), monitor({ escalationPolicyId: "esc_nope" }))),
    ).toEqual(["escalationPolicyId"]);
    // Another project's policy is no more usable than a missing one.
    const other = await addProjectWithKey(service, orgId, "prj_other_esc");
    const hook = await ok<{ id: string }>(
      await owner.post(api("/channels", other.projectId), {
        name: "H",
        type: "webhook",
        settings: {},
      }),
      201,
    );
    const theirs = await ok<{ id: string }>(
      await owner.post(api("/escalation-policies", other.projectId), {
        name: "Theirs",
        steps: [{ delayMinutes: 0, channelIds: [hook.id] }],
      }),
      201,
    );
    expect(
      await fields(await owner.post(api("/monitors"), monitor({ escalationPolicyId: theirs.id }))),
    ).toEqual(["escalationPolicyId"]);
    const created = await ok<{ id: string; escalationPolicyId: string | null }>(
      await owner.post(api("/monitors"), monitor()),
      201,
    );
    expect(created.escalationPolicyId).toBeNull();
    expect(
      await fields(
        await owner.patch(api(`/monitors/${created.id}`), { escalationPolicyId: theirs.id }),
      ),
    ).toEqual(["escalationPolicyId"]);
    const attached = await ok<{ escalationPolicyId: string | null }>(
      await owner.patch(api(`/monitors/${created.id}`), { escalationPolicyId: policy.id }),
    );
    expect(attached.escalationPolicyId).toBe(policy.id);
    expect((await owner.delete(api(`/monitors/${created.id}`))).status).toBe(204);
  });

  it("starts the escalation when the monitor's outage opens an incident; a used policy is kept", async () => {
    const created = await ok<{ id: string }>(
      await owner.post(
        api("/monitors"),
        monitor({ name: "Payments", escalationPolicyId: policy.id }),
      ),
      201,
    );
    await ok(await owner.post(api(`/monitors/${created.id}/run`)));
    const incidents = await ok<{ data: { id: string }[] }>(
      await owner.get(api(`/monitors/${created.id}/incidents`)),
    );
    const incidentId = incidents.data[0]?.id ?? "";
    const escalation = await ok<IncidentEscalationView>(
      await owner.get(api(`/incidents/${incidentId}/escalation`)),
    );
    expect(escalation).toMatchObject({
      policyId: policy.id,
      policyName: "On call",
      status: "active",
      steps: 2,
      rounds: 1,
    });
    // A second failing check adds to the outage: no second escalation.
    await ok(await owner.post(api(`/monitors/${created.id}/run`)));
    const used = await ok<EscalationPolicyView>(
      await owner.get(api(`/escalation-policies/${policy.id}`)),
    );
    expect(used.usedBy.monitors.map((m) => m.name)).toContain("Payments");
    const refused = await owner.delete(api(`/escalation-policies/${policy.id}`));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as Problem).detail).toContain(`'Payments' (${created.id})`);
  });

  it("stops in the acknowledge's and resolve's own transaction; a reopen clears the acknowledgement and restarts", async () => {
    // Steps due in 30 minutes: the background worker sends none during the test.
    const later = await ok<EscalationPolicyView>(
      await owner.post(api("/escalation-policies"), {
        name: "Later",
        steps: [
          { delayMinutes: 30, channelIds: policy.steps[0]?.channelIds ?? [] },
          { delayMinutes: 30, channelIds: policy.steps[0]?.channelIds ?? [] },
        ],
      }),
      201,
    );
    const created = await ok<{ id: string }>(
      await owner.post(api("/monitors"), monitor({ name: "Orders", escalationPolicyId: later.id })),
      201,
    );
    await ok(await owner.post(api(`/monitors/${created.id}/run`)));
    const incidentId =
      (await service.deps.meta.repos.incidents.findOpenBySource("monitor", created.id))?.id ?? "";
    const escalation = async () =>
      ok<IncidentEscalationView>(await owner.get(api(`/incidents/${incidentId}/escalation`)));
    const detail = async () =>
      ok<IncidentDetailView>(await owner.get(api(`/incidents/${incidentId}`)));
    const entries = async (type: string) =>
      (await detail()).timeline.filter((e) => e.type === type).map((e) => e.message);
    expect(await escalation()).toMatchObject({ status: "active", nextStep: 1 });

    // API acknowledge: stopped at once (no worker pass), one entry.
    await ok(await owner.post(api(`/incidents/${incidentId}/acknowledge`), {}));
    expect(await escalation()).toMatchObject({ status: "stopped", stopReason: "acknowledged" });
    expect(await entries("escalation_stopped")).toEqual(["escalation stopped: acknowledged"]);
    // Resolving a stopped escalation's incident adds no second entry.
    await ok(await owner.post(api(`/incidents/${incidentId}/resolve`), {}));
    expect(await entries("escalation_stopped")).toHaveLength(1);

    // Reopen: not acknowledged any more, the escalation from step 1 again.
    const reopened = await ok<IncidentDetailView>(
      await owner.post(api(`/incidents/${incidentId}/reopen`), { message: "Back" }),
    );
    expect(reopened).toMatchObject({
      status: "active",
      acknowledgedAt: null,
      acknowledgedBy: null,
    });
    expect(reopened.timeline.at(-1)).toMatchObject({
      type: "reopened",
      message: expect.stringMatching(
        /^Back — acknowledgement by .* cleared; escalation restarted from step 1 — Later$/,
      ),
      data: { escalationRestarted: { policyId: later.id, policyName: "Later" } },
    });
    expect(await escalation()).toMatchObject({
      status: "active",
      stopReason: null,
      stepsSent: 0,
      nextStep: 1,
      round: 1,
    });

    // A link minted now acknowledges it, stopping the escalation in the same transaction.
    const link = await service.deps.meta.transaction((tx) =>
      mintAcknowledgeLink({
        tx,
        deps: { clock: { now: () => new Date() }, appUrl: service.deps.domain.appUrl },
        incidentId,
        via: { channelId: null, label: "a test" },
      }),
    );
    expect(link).toBeDefined();
    const used = await service.fetch(new URL(link ?? "").pathname, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(used.status).toBe(200);
    expect(await escalation()).toMatchObject({ status: "stopped", stopReason: "acknowledged" });
    expect(await entries("escalation_stopped")).toHaveLength(2);

    // Resolved, reopened again and resolved by hand: stopped as resolved, once.
    await ok(await owner.post(api(`/incidents/${incidentId}/resolve`), {}));
    expect(await entries("escalation_stopped")).toHaveLength(2);
    await ok(await owner.post(api(`/incidents/${incidentId}/reopen`), {}));
    expect(await escalation()).toMatchObject({ status: "active", nextStep: 1 });
    await ok(await owner.post(api(`/incidents/${incidentId}/resolve`), {}));
    expect(await escalation()).toMatchObject({ status: "stopped", stopReason: "resolved" });
    expect((await entries("escalation_stopped")).slice(2)).toEqual([
      "escalation stopped: resolved",
    ]);

    // A monitor's recovery resolves a reopened incident and stops its escalation too.
    await ok(await owner.post(api(`/incidents/${incidentId}/reopen`), {}));
    await ok(await owner.patch(api(`/monitors/${created.id}`), { steps: [{ url: healthy }] }));
    await ok(await owner.post(api(`/monitors/${created.id}/run`)));
    expect((await detail()).status).toBe("resolved");
    expect(await escalation()).toMatchObject({ status: "stopped", stopReason: "resolved" });
    expect((await entries("escalation_stopped")).slice(3)).toEqual([
      "escalation stopped: resolved",
    ]);
  });
});
