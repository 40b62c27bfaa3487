import { expect, it } from "vitest";
import { hashAckToken, mintAcknowledgeLink } from "../../src/incidents/ack-links.js";
import { AppUrl } from "../../src/lib/app-url.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import { isAcknowledged } from "../../src/meta/repositories/incidents.js";

/** Acknowledge, assignee and the acknowledge links' tokens (0015-incident-response). */
export function incidentResponseStoreContract(getStore: () => MetaStore): void {
  const t0 = Date.UTC(2026, 0, 2, 12, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  const incident = (id: string) => ({
    id,
    projectId: "prj_resp",
    title: "Checkout is down",
    status: "active" as const,
    severity: "high" as const,
    source: "manual" as const,
    sourceId: null,
    sourceKey: null,
    startedAt: at(0),
    resolvedAt: null,
    durationMs: null,
    cause: null,
    createdBy: null,
    createdAt: at(0),
    updatedAt: at(0),
  });

  it("acknowledges an active incident once and keeps who did it", async () => {
    const { repos } = getStore();
    await repos.organizations.insert({ id: "org_resp", name: "Resp", createdAt: at(0) });
    await repos.projects.insert({ id: "prj_resp", orgId: "org_resp", name: "r", createdAt: at(0) });
    await repos.incidents.insert(incident("inc_resp_a"));
    const fresh = await repos.incidents.findById("inc_resp_a");
    expect(fresh).toMatchObject({ acknowledgedAt: null, acknowledgedBy: null, assigneeId: null });
    expect(fresh && isAcknowledged(fresh)).toBe(false);
    const by = { kind: "link" as const, id: "chn_x", label: "Ops email (email)" };
    expect(await repos.incidents.acknowledge("inc_resp_a", { at: at(60), by })).toBe(true);
    // The first acknowledge wins; a second changes nothing.
    const other = { kind: "user" as const, id: "usr_y", label: "Y" };
    expect(await repos.incidents.acknowledge("inc_resp_a", { at: at(90), by: other })).toBe(false);
    const acked = await repos.incidents.findById("inc_resp_a");
    expect(acked).toMatchObject({ acknowledgedAt: at(60), acknowledgedBy: by, updatedAt: at(60) });
    expect(acked && isAcknowledged(acked)).toBe(true);
    // A resolved incident takes no acknowledge.
    await repos.incidents.insert({ ...incident("inc_resp_b"), status: "resolved" });
    expect(await repos.incidents.acknowledge("inc_resp_b", { at: at(60), by })).toBe(false);
  });

  it("assigns and unassigns an incident", async () => {
    const { repos } = getStore();
    expect(await repos.incidents.assign("inc_resp_a", "usr_z", at(120))).toBe(true);
    expect(await repos.incidents.findById("inc_resp_a")).toMatchObject({
      assigneeId: "usr_z",
      updatedAt: at(120),
    });
    expect(await repos.incidents.assign("inc_resp_a", null, at(130))).toBe(true);
    expect((await repos.incidents.findById("inc_resp_a"))?.assigneeId).toBeNull();
    expect(await repos.incidents.assign("inc_missing", "usr_z", at(130))).toBe(false);
  });

  it("stores an acknowledge link's token hashed, uses it once, and not after it expires", async () => {
    const store = getStore();
    await store.repos.incidents.insert(incident("inc_resp_c"));
    const deps = { clock: { now: () => new Date(t0) }, appUrl: new AppUrl("https://vigil.test/") };
    const url = await store.transaction((tx) =>
      mintAcknowledgeLink({
        tx,
        deps,
        incidentId: "inc_resp_c",
        via: { channelId: null, label: "escalation" },
      }),
    );
    expect(url).toMatch(/^https:\/\/vigil\.test\/ack\/[A-Za-z0-9_-]{43}$/);
    const token = url?.split("/ack/")[1] ?? "";
    expect(await store.repos.incidentAckLinks.findByHash(token)).toBeUndefined();
    const link = await store.repos.incidentAckLinks.findByHash(hashAckToken(token));
    expect(link).toMatchObject({
      incidentId: "inc_resp_c",
      channelId: null,
      viaLabel: "escalation",
      createdAt: at(0),
      expiresAt: at(24 * 3600),
      usedAt: null,
    });
    const hash = hashAckToken(token);
    // Not after its expiry; once before it.
    expect(await store.repos.incidentAckLinks.markUsed(hash, at(24 * 3600))).toBe(false);
    expect(await store.repos.incidentAckLinks.markUsed(hash, at(60))).toBe(true);
    expect(await store.repos.incidentAckLinks.markUsed(hash, at(61))).toBe(false);
    expect((await store.repos.incidentAckLinks.findByHash(hash))?.usedAt).toBe(at(60));
    // Expired a day ago or more: pruned; newer ones stay.
    expect(await store.repos.incidentAckLinks.deleteExpired("inc_resp_c", at(24 * 3600))).toBe(0);
    expect(await store.repos.incidentAckLinks.deleteExpired("inc_resp_c", at(48 * 3600))).toBe(1);
    // No link for an acknowledged or resolved incident: it would do nothing.
    const none = await store.transaction((tx) =>
      mintAcknowledgeLink({
        tx,
        deps,
        incidentId: "inc_resp_a",
        via: { channelId: null, label: "x" },
      }),
    );
    expect(none).toBeUndefined();
  });
}
