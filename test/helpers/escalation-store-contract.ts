import { expect, it } from "vitest";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { IncidentEscalationRecord } from "../../src/meta/repositories/incident-escalations.js";

/** Escalation policies and incidents' escalations (0016-escalation-policies). */
export function escalationStoreContract(getStore: () => MetaStore): void {
  const t0 = Date.UTC(2026, 0, 3, 12, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  const incident = (id: string) => ({
    id,
    projectId: "prj_esc",
    title: "Checkout is down",
    status: "active" as const,
    severity: "high" as const,
    source: "monitor" as const,
    sourceId: `mon_${id}`,
    sourceKey: null,
    startedAt: at(0),
    resolvedAt: null,
    durationMs: null,
    cause: null,
    createdBy: null,
    createdAt: at(0),
    updatedAt: at(0),
  });
  const escalation = (incidentId: string, nextAt: string): IncidentEscalationRecord => ({
    incidentId,
    projectId: "prj_esc",
    policyId: "esc_contract",
    policy: { name: "On call", steps: [{ delayMinutes: 0, channelIds: ["chn_a"] }], repeat: 1 },
    payload: { event: "monitor.down", projectId: "prj_esc" },
    status: "active",
    stopReason: null,
    step: 0,
    round: 1,
    nextAt,
    claimedUntil: null,
    version: 0,
    createdAt: at(0),
    updatedAt: at(0),
  });

  it("stores a project's escalation policies with their steps, by name", async () => {
    const { repos } = getStore();
    await repos.organizations.insert({ id: "org_esc", name: "Esc", createdAt: at(0) });
    await repos.projects.insert({ id: "prj_esc", orgId: "org_esc", name: "e", createdAt: at(0) });
    const steps = [
      { delayMinutes: 0, channelIds: ["chn_a"] },
      { delayMinutes: 15, channelIds: ["chn_b", "chn_c"] },
    ];
    const policy = {
      id: "esc_contract",
      projectId: "prj_esc",
      name: "On call",
      steps,
      repeat: 2,
      createdBy: null,
      createdAt: at(0),
      updatedAt: at(0),
    };
    await repos.escalationPolicies.insert(policy);
    await repos.escalationPolicies.insert({ ...policy, id: "esc_contract_b", name: "A first" });
    expect(await repos.escalationPolicies.findById("esc_contract")).toEqual(policy);
    expect((await repos.escalationPolicies.findByName("prj_esc", "On call"))?.id).toBe(
      "esc_contract",
    );
    expect((await repos.escalationPolicies.listByProject("prj_esc")).map((p) => p.name)).toEqual([
      "A first",
      "On call",
    ]);
    await expect(repos.escalationPolicies.insert({ ...policy, id: "esc_dup" })).rejects.toThrow();
    await repos.escalationPolicies.update("esc_contract_b", {
      name: "Renamed",
      steps: [steps[1] ?? steps[0]].flatMap((s) => (s ? [s] : [])),
      repeat: 0,
      updatedAt: at(5),
    });
    expect(await repos.escalationPolicies.findById("esc_contract_b")).toMatchObject({
      name: "Renamed",
      repeat: 0,
      steps: [{ delayMinutes: 15, channelIds: ["chn_b", "chn_c"] }],
      updatedAt: at(5),
    });
    expect(await repos.escalationPolicies.delete("esc_contract_b")).toBe(true);
    expect(await repos.escalationPolicies.delete("esc_contract_b")).toBe(false);
  });

  it("claims due escalations once, raising their version, until the claim runs out", async () => {
    const { repos } = getStore();
    for (const id of ["inc_esc_a", "inc_esc_b", "inc_esc_c"])
      await repos.incidents.insert(incident(id));
    await repos.incidentEscalations.insert(escalation("inc_esc_a", at(0)));
    await repos.incidentEscalations.insert(escalation("inc_esc_b", at(30)));
    await repos.incidentEscalations.insert(escalation("inc_esc_c", at(600)));
    expect(await repos.incidentEscalations.findByIncident("inc_esc_a")).toEqual(
      escalation("inc_esc_a", at(0)),
    );
    // Two claimers at once: each due row goes to exactly one of them.
    const [one, two] = await Promise.all([
      repos.incidentEscalations.claimDue(at(60), 10, at(120)),
      repos.incidentEscalations.claimDue(at(60), 10, at(120)),
    ]);
    const claimed = [...(one ?? []), ...(two ?? [])];
    expect(claimed.map((e) => e.incidentId).sort()).toEqual(["inc_esc_a", "inc_esc_b"]);
    expect(claimed.every((e) => e.version === 1 && e.claimedUntil === at(120))).toBe(true);
    // Claimed: nobody else gets them until the claim runs out.
    expect(await repos.incidentEscalations.claimDue(at(90), 10, at(150))).toEqual([]);
    const again = await repos.incidentEscalations.claimDue(at(120), 10, at(180));
    expect(again.map((e) => [e.incidentId, e.version])).toEqual([
      ["inc_esc_a", 2],
      ["inc_esc_b", 2],
    ]);
  });

  it("writes under the version it read only", async () => {
    const { repos } = getStore();
    const change = {
      status: "active" as const,
      stopReason: null,
      step: 0,
      round: 2,
      nextAt: at(900),
      updatedAt: at(130),
    };
    // Version 1 was the first claim's: the second claim raised it since.
    expect(await repos.incidentEscalations.advance("inc_esc_a", 1, change)).toBe(false);
    expect(await repos.incidentEscalations.advance("inc_esc_a", 2, change)).toBe(true);
    expect(await repos.incidentEscalations.findByIncident("inc_esc_a")).toMatchObject({
      ...change,
      version: 3,
      claimedUntil: null,
    });
    const stop = { ...change, status: "completed" as const, nextAt: null };
    expect(await repos.incidentEscalations.advance("inc_esc_a", 3, stop)).toBe(true);
    // Completed: no write takes it back.
    expect(await repos.incidentEscalations.advance("inc_esc_a", 4, change)).toBe(false);
  });

  it("lists the active escalations whose incident was acknowledged or resolved", async () => {
    const { repos } = getStore();
    expect(await repos.incidentEscalations.listStoppable(10)).toEqual([]);
    const by = { kind: "user" as const, id: "usr_esc", label: "Ann" };
    await repos.incidents.acknowledge("inc_esc_b", { at: at(200), by });
    await repos.incidents.update(
      "inc_esc_c",
      { status: "resolved", resolvedAt: at(210), durationMs: 210_000, updatedAt: at(210) },
      "active",
    );
    const stoppable = await repos.incidentEscalations.listStoppable(10);
    expect(stoppable.map((s) => [s.escalation.incidentId, s.reason])).toEqual([
      ["inc_esc_b", "acknowledged"],
      ["inc_esc_c", "resolved"],
    ]);
    // The incident's delete takes its escalation with it.
    await repos.incidents.deleteBySource("monitor", "mon_inc_esc_c");
    expect(await repos.incidentEscalations.findByIncident("inc_esc_c")).toBeUndefined();
  });
}
