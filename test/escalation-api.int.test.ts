import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EscalationPolicyView } from "../src/contracts/escalation.js";
import type { Problem } from "../src/contracts/pagination.js";
import { createRule, json, rule, startAlertRulesService } from "./helpers/alert-rules-api.js";
import type { Session } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

type Policy = EscalationPolicyView;

/** Escalation policies over HTTP: members write, viewers read; attached to alert rules; in use, not deleted. */
describe("escalation policies API", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let projectId: string;
  let hook: string;
  let slack: string;

  const base = () => `/api/projects/${projectId}/escalation-policies`;
  const ok = async <T>(response: Response, status = 200): Promise<T> => {
    const body = await json<T>(response);
    expect(response.status, JSON.stringify(body)).toBe(status);
    return body;
  };
  const refused = async (response: Response, status: number) => {
    const problem = await json<Problem>(response);
    expect(response.status, JSON.stringify(problem)).toBe(status);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    return problem;
  };
  const fields = (problem: Problem) => (problem.errors ?? []).map((e) => e.field);
  const channel = async (name: string, type: string, settings: Record<string, unknown>) =>
    (
      await ok<{ id: string }>(
        await owner.post(`/api/projects/${projectId}/channels`, { name, type, settings }),
        201,
      )
    ).id;

  beforeAll(async () => {
    ({ service, owner, viewer, outsider, projectId } = await startAlertRulesService(dir.path));
    hook = await channel("Ops webhook", "webhook", {});
    slack = await channel("Ops slack", "slack", { webhookUrl: "https://hooks.slack.com/x" });
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("creates, lists, reads and changes a policy; viewers read, outsiders see nothing", async () => {
    const created = await ok<Policy>(
      await owner.post(base(), {
        name: " Primary on call ",
        steps: [
          { delayMinutes: 0, channelIds: [hook, hook] },
          { delayMinutes: 15, channelIds: [slack, hook] },
        ],
        repeat: 2,
      }),
      201,
    );
    expect(created.id).toMatch(/^esc_/);
    expect(created).toMatchObject({
      projectId,
      name: "Primary on call",
      steps: [
        { delayMinutes: 0, channelIds: [hook] },
        { delayMinutes: 15, channelIds: [slack, hook] },
      ],
      repeat: 2,
      usedBy: { monitors: [], alertRules: [] },
    });
    await ok(
      await owner.post(base(), {
        name: "After hours",
        steps: [{ delayMinutes: 5, channelIds: [slack] }],
      }),
      201,
    );
    const list = await ok<{ data: Policy[] }>(await viewer.get(base()));
    expect(list.data.map((p) => [p.name, p.repeat])).toEqual([
      ["After hours", 0],
      ["Primary on call", 2],
    ]);
    expect(await ok<Policy>(await viewer.get(`${base()}/${created.id}`))).toEqual(created);
    const changed = await ok<Policy>(
      await owner.patch(`${base()}/${created.id}`, { repeat: 0, name: "Primary" }),
    );
    expect(changed).toMatchObject({ name: "Primary", repeat: 0, steps: created.steps });
    await refused(
      await viewer.post(base(), { name: "x", steps: [{ delayMinutes: 0, channelIds: [hook] }] }),
      403,
    );
    await refused(await viewer.patch(`${base()}/${created.id}`, { repeat: 1 }), 403);
    await refused(await viewer.delete(`${base()}/${created.id}`), 403);
    await refused(await outsider.get(base()), 404);
    await refused(await outsider.get(`${base()}/${created.id}`), 404);
    await refused(await owner.get(`${base()}/esc_missing`), 404);
    const clash = await refused(
      await owner.patch(`${base()}/${created.id}`, { name: "After hours" }),
      409,
    );
    expect(fields(clash)).toEqual(["name"]);
  });

  it("refuses invalid input, naming the field", async () => {
    const step = { delayMinutes: 0, channelIds: [hook] };
    const valid = { name: "x", steps: [step] };
    for (const [change, field] of [
      [{ name: "" }, "name"],
      [{ steps: [] }, "steps"],
      [{ steps: Array.from({ length: 11 }, () => step) }, "steps"],
      [{ steps: [{ ...step, delayMinutes: 1441 }] }, "steps.0.delayMinutes"],
      [{ steps: [{ ...step, delayMinutes: -1 }] }, "steps.0.delayMinutes"],
      [{ steps: [step, { ...step, channelIds: [] }] }, "steps.1.channelIds"],
      [{ steps: [{ ...step, channelIds: [hook, "chn_nope"] }] }, "steps.0.channelIds.1"],
      [{ repeat: 11 }, "repeat"],
      [{ extra: true }, ""],
    ] as const) {
      const problem = await refused(await owner.post(base(), { ...valid, ...change }), 400);
      if (field) expect(fields(problem), JSON.stringify(change)).toContain(field);
    }
    const policy = (await ok<{ data: Policy[] }>(await owner.get(base()))).data[0];
    const empty = await refused(await owner.patch(`${base()}/${policy?.id}`, {}), 400);
    expect(empty.detail).toMatch(/at least one field/);
  });

  it("attaches a policy to alert rules with an incident, and keeps it while they use it", async () => {
    const [policy] = (await ok<{ data: Policy[] }>(await owner.get(base()))).data;
    const rules = `/api/projects/${projectId}/alert-rules`;
    const unknown = await refused(
      await owner.post(rules, rule({ openIncident: true, escalationPolicyId: "esc_nope" })),
      400,
    );
    expect(fields(unknown)).toEqual(["escalationPolicyId"]);
    const noIncident = await refused(
      await owner.post(rules, rule({ escalationPolicyId: policy?.id })),
      400,
    );
    expect(fields(noIncident)).toEqual(["escalationPolicyId"]);
    expect(noIncident.detail).toMatch(/openIncident/);
    const attached = await createRule(
      owner,
      rules,
      rule({ openIncident: true, escalationPolicyId: policy?.id }),
    );
    expect(attached.escalationPolicyId).toBe(policy?.id);
    const used = await ok<Policy>(await owner.get(`${base()}/${policy?.id}`));
    expect(used.usedBy).toEqual({
      monitors: [],
      alertRules: [{ id: attached.id, name: attached.name }],
    });
    const inUse = await refused(await owner.delete(`${base()}/${policy?.id}`), 409);
    expect(inUse.detail).toContain(`alert rule '${attached.name}' (${attached.id})`);
    const detached = await ok<{ escalationPolicyId: string | null }>(
      await owner.patch(`${rules}/${attached.id}`, { escalationPolicyId: null }),
    );
    expect(detached.escalationPolicyId).toBeNull();
    expect((await owner.delete(`${base()}/${policy?.id}`)).status).toBe(204);
    await refused(await owner.get(`${base()}/${policy?.id}`), 404);
  });

  it("keeps a channel while a policy's step notifies it, naming the policy", async () => {
    const inUse = await refused(
      await owner.delete(`/api/projects/${projectId}/channels/${slack}`),
      409,
    );
    expect(inUse.detail).toMatch(/used by escalation policy 'Primary' \(esc_\w+\); remove it/);
  });
});
