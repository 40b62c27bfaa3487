import { describe, expect, it } from "vitest";
import { createUser } from "../src/auth/users.js";
import type { StatusPageData } from "../src/contracts/status-page-data.js";
import {
  DAY,
  ENGINES,
  json,
  MIN,
  T0,
  useStatusPageTimeline,
} from "./helpers/status-page-timeline.js";
import { signIn } from "./helpers/test-service.js";

/**
 * Alert rules and incidents on a page: a firing, muted or deleted rule, an incident opened by hand on
 * the components it names, and a rule's open incident while its mute holds and once it ends.
 */
describe.each(ENGINES)("status page alert rules and incidents on %s", (engine) => {
  const t = useStatusPageTimeline(engine);

  it("a firing alert rule degrades a component beside a passing monitor; mute, unmute and delete move it", async () => {
    const { service, owner, orgId, projectId, monitorId, pageId, data, component } = t;
    t.nowMs = T0 + DAY + 60 * MIN;
    const rule = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/alert-rules`, {
        name: "Any logs",
        query: "SELECT count() AS value FROM logs",
        condition: { op: ">=", threshold: 0 },
      }),
    );
    const base = `/api/orgs/${orgId}/status-pages/${pageId}/components`;
    const search = await json<{ id: string }>(
      await owner.post(base, { name: "Search", monitorIds: [monitorId], alertRuleIds: [rule.id] }),
    );
    const state = async () => component(await data(), search.id).status;
    expect(await state()).toBe("operational");
    await service.deps.alerts.engine.evaluate(rule.id);
    expect(await state()).toBe("degraded");
    expect((await data()).page.status).toBe("degraded");
    const rules = `/api/projects/${projectId}/alert-rules/${rule.id}`;
    expect((await owner.post(`${rules}/mute`, {})).status).toBe(200);
    expect(await state()).toBe("operational");
    expect((await owner.post(`${rules}/unmute`, {})).status).toBe(200);
    expect(await state()).toBe("degraded");
    expect((await owner.delete(rules)).status).toBe(204);
    expect(await state()).toBe("operational");
    expect((await data()).page.status).toBe("operational");
  });

  it("an incident opened by hand shows on the components it names, with its updates, until resolved", async () => {
    const { service, owner, orgId, projectId, apiId, webId, data, component, today } = t;
    t.nowMs = T0 + DAY + 2 * 60 * MIN;
    const incidents = `/api/projects/${projectId}/incidents`;
    // A member may open incidents, but only owners and admins put them on public pages.
    const member = { email: "member@example.com", password: "member secret 1" };
    await createUser({
      ctx: { deps: service.deps.domain, actor: { kind: "system" } },
      input: { ...member, orgId, role: "member" },
    });
    const memberSession = await signIn(service, member.email, member.password);
    const refused = await memberSession.post(incidents, {
      title: "Payments degraded",
      severity: "medium",
      componentIds: [webId],
    });
    expect(refused.status).toBe(403);
    const bad = await owner.post(incidents, {
      title: "Payments degraded",
      severity: "medium",
      componentIds: [webId, "spc_elsewhere"],
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("componentIds.1");
    const created = await owner.post(incidents, {
      title: "Payments degraded",
      severity: "medium",
      message: "Some card payments fail",
      componentIds: [webId],
    });
    expect(created.status).toBe(201);
    const incident = await json<{ id: string; componentIds: string[] }>(created);
    expect(incident.componentIds).toEqual([webId]);
    let d = await data();
    expect(component(d, webId).status).toBe("degraded");
    expect(component(d, apiId).status).toBe("operational");
    expect(d.page.status).toBe("degraded");
    expect(d.activeIncidents).toMatchObject([
      {
        title: "Payments degraded",
        impact: "degraded",
        componentIds: [webId],
        updates: [{ phase: "investigating", message: "Some card payments fail" }],
      },
    ]);
    expect(
      (await owner.patch(`${incidents}/${incident.id}`, { componentIds: [apiId] })).status,
    ).toBe(200);
    d = await data();
    expect(component(d, webId).status).toBe("operational");
    expect(component(d, apiId).status).toBe("degraded");
    t.nowMs += 10 * MIN;
    expect((await owner.post(`${incidents}/${incident.id}/resolve`, {})).status).toBe(200);
    d = await data();
    expect(d.page.status).toBe("operational");
    expect(d.activeIncidents).toEqual([]);
    expect(today(d, apiId)).toMatchObject({
      status: "degraded",
      degradedMs: 10 * MIN,
      incidents: [{ title: "Payments degraded", severity: "medium" }],
    });
  });

  it("a muted rule's open incident leaves the page while the mute holds and comes back when it ends", async () => {
    const { service, owner, orgId, projectId, pageId, data, component, tick } = t;
    t.nowMs = T0 + DAY + 3 * 60 * MIN;
    const rule = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/alert-rules`, {
        name: "Queue backlog",
        severity: "high",
        openIncident: true,
        query: "SELECT count() AS value FROM logs",
        condition: { op: ">=", threshold: 0 },
      }),
    );
    const queue = await json<{ id: string }>(
      await owner.post(`/api/orgs/${orgId}/status-pages/${pageId}/components`, {
        name: "Queue",
        alertRuleIds: [rule.id],
      }),
    );
    const shown = (d: StatusPageData) =>
      d.activeIncidents.filter((i) => i.componentIds.includes(queue.id)).map((i) => i.impact);
    await service.deps.alerts.engine.evaluate(rule.id);
    let d = await data();
    expect([component(d, queue.id).status, shown(d), d.page.status]).toEqual([
      "down",
      ["down"],
      "down",
    ]);
    const rules = `/api/projects/${projectId}/alert-rules/${rule.id}`;
    const until = new Date(t.nowMs + 10 * MIN).toISOString();
    expect((await owner.post(`${rules}/mute`, { until })).status).toBe(200);
    d = await data();
    expect([component(d, queue.id).status, shown(d), d.page.status]).toEqual([
      "operational",
      [],
      "operational",
    ]);
    // Still open: muting only stops the page from counting it.
    const open = await json<{ data: { source: string }[] }>(
      await owner.get(`/api/projects/${projectId}/incidents?status=active`),
    );
    expect(open.data.map((i) => i.source)).toContain("alert");
    await tick(t.nowMs + 5 * MIN);
    expect(component(await data(), queue.id).status).toBe("operational");
    // The mute ends: the next tick counts the incident again.
    await tick(Date.parse(until) + MIN);
    d = await data();
    expect([component(d, queue.id).status, shown(d), d.page.status]).toEqual([
      "down",
      ["down"],
      "down",
    ]);
    expect((await owner.delete(rules)).status).toBe(204);
    d = await data();
    expect([component(d, queue.id).status, shown(d)]).toEqual(["operational", []]);
  });

  it("a mute that ends gives the page a new version even where the component's state stays", async () => {
    const { service, owner, orgId, projectId, pageId, data, component, tick } = t;
    t.nowMs = T0 + DAY + 4 * 60 * MIN;
    const rule = await json<{ id: string }>(
      await owner.post(`/api/projects/${projectId}/alert-rules`, {
        name: "Mail bounces",
        severity: "low",
        openIncident: true,
        query: "SELECT count() AS value FROM logs",
        condition: { op: ">=", threshold: 0 },
      }),
    );
    const mail = await json<{ id: string }>(
      await owner.post(`/api/orgs/${orgId}/status-pages/${pageId}/components`, {
        name: "Mail",
        alertRuleIds: [rule.id],
      }),
    );
    const incidents = `/api/projects/${projectId}/incidents`;
    const outage = await json<{ id: string }>(
      await owner.post(incidents, {
        title: "Mail down",
        severity: "critical",
        componentIds: [mail.id],
      }),
    );
    await service.deps.alerts.engine.evaluate(rule.id);
    const rules = `/api/projects/${projectId}/alert-rules/${rule.id}`;
    const until = new Date(t.nowMs + 10 * MIN).toISOString();
    expect((await owner.post(`${rules}/mute`, { until })).status).toBe(200);
    const severities = (d: StatusPageData) =>
      d.activeIncidents
        .filter((i) => i.componentIds.includes(mail.id))
        .map((i) => i.severity)
        .sort();
    const version = async () =>
      (
        await json<{ page: { dataVersion: number } }>(
          await owner.get(`/api/orgs/${orgId}/status-pages/${pageId}`),
        )
      ).page.dataVersion;
    let d = await data();
    expect([component(d, mail.id).status, severities(d)]).toEqual(["down", ["critical"]]);
    await tick(t.nowMs + MIN);
    const before = await version();
    // Still down by the critical incident, but the rule's incident is back on it.
    await tick(Date.parse(until) + MIN);
    expect(await version()).toBeGreaterThan(before);
    d = await data();
    expect([component(d, mail.id).status, severities(d)]).toEqual(["down", ["critical", "low"]]);
    expect((await owner.post(`${incidents}/${outage.id}/resolve`, {})).status).toBe(200);
    expect((await owner.delete(rules)).status).toBe(204);
  });
});
