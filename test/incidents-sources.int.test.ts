import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSourceIncident, resolveSourceIncident } from "../src/incidents/source-incidents.js";
import {
  createIncident,
  type Incident,
  json,
  type Page,
  type Problem,
} from "./helpers/incidents-api.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/**
 * The incidents monitors and alert rules open, through the management API: when they may be
 * reopened, and how they name their source.
 */
describe("incidents of monitors and alert rules", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let viewer: Session;
  let projectId: string;
  const base = () => `/api/projects/${projectId}/incidents`;
  const create = (body: Record<string, unknown>) => createIncident(owner, base(), body);

  beforeAll(async () => {
    ({ service, owner, viewer, projectId } = await startWithRoles(dir.path, {
      // Rule states are set by the tests: no scheduled evaluation may change them meanwhile.
      VIGIL_ALERTS_ENABLED: "false",
    }));
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("reopens a monitor's or alert rule's incident only if it is the latest and the source still fails", async () => {
    const { meta, domain } = service.deps;
    const now = new Date().toISOString();
    const monitorId = "mon_reopen";
    await meta.repos.monitors.insert({
      id: monitorId,
      projectId,
      name: "Checkout",
      status: "active",
      definition: { frequency: "1m", steps: [{ url: "https://example.com" }] },
      channelIds: [],
      health: "passing",
      failureStreak: 0,
      lastCheckedAt: null,
      lastResultId: null,
      openIncidentId: null,
      createdBy: null,
      createdAt: now,
      updatedAt: now,
    });
    const setHealth = (health: "passing" | "outage") =>
      meta.repos.monitors.updateState(monitorId, {
        health,
        failureStreak: health === "outage" ? 1 : 0,
        lastCheckedAt: new Date().toISOString(),
        lastResultId: "run_reopen",
        openIncidentId: null,
      });
    /** An outage and its recovery, as the monitor engine records them. */
    const outage = async (source: "monitor" | "alert", sourceId: string): Promise<string> => {
      const opened = await openSourceIncident(meta, domain, {
        projectId,
        source,
        sourceId,
        title: "Checkout is down",
        severity: "high",
        cause: "status 500",
        at: new Date().toISOString(),
        event: { type: source === "monitor" ? "monitor_down" : "alert_fired" },
      });
      await resolveSourceIncident(meta, domain, {
        source,
        sourceId,
        at: new Date().toISOString(),
        event: { type: source === "monitor" ? "monitor_recovered" : "alert_resolved" },
      });
      return opened.incident.id;
    };
    const reopen = (id: string) => owner.post(`${base()}/${id}/reopen`, {});
    const refusal = async (id: string) => {
      const response = await reopen(id);
      expect(response.status).toBe(409);
      return (await json<Problem>(response)).detail;
    };

    const first = await outage("monitor", monitorId);
    // Recovered: reopening would leave an incident nothing resolves.
    expect(await refusal(first)).toContain("not in an outage");
    const second = await outage("monitor", monitorId);
    await setHealth("outage");
    expect(await refusal(first)).toContain(`later incident '${second}'`);
    const reopened = await reopen(second);
    expect(reopened.status).toBe(200);
    expect((await json<Incident>(reopened)).status).toBe("active");
    // The monitor's recovery resolves the reopened incident.
    const recovered = await resolveSourceIncident(meta, domain, {
      source: "monitor",
      sourceId: monitorId,
      at: new Date().toISOString(),
      event: { type: "monitor_recovered" },
    });
    expect(recovered?.incident.id).toBe(second);
    expect((await meta.repos.incidents.findById(second))?.status).toBe("resolved");

    // An alert rule's incident: only while the rule fires.
    const created = await owner.post(`/api/projects/${projectId}/alert-rules`, {
      name: "Errors",
      query: "SELECT count() AS value FROM logs WHERE level = 'error'",
      condition: { op: ">", threshold: 2 },
    });
    expect(created.status).toBe(201);
    const ruleId = (await json<{ id: string }>(created)).id;
    const fired = await outage("alert", ruleId);
    expect(await refusal(fired)).toContain("not firing");
    await meta.repos.alertRules.recordEvaluation(ruleId, {
      state: "firing",
      lastEvaluatedAt: new Date().toISOString(),
      lastDurationMs: 5,
      lastValue: 3,
      lastSeries: 1,
      lastError: null,
      failures: 0,
      failingSince: null,
    });
    expect((await reopen(fired)).status).toBe(200);
  });

  it("names each incident's monitor or alert rule as it is called now, in the list and the detail", async () => {
    const { meta, domain } = service.deps;
    const now = new Date().toISOString();
    const monitorId = "mon_named";
    await meta.repos.monitors.insert({
      id: monitorId,
      projectId,
      name: "Checkout API",
      status: "active",
      definition: { frequency: "1m", steps: [{ url: "https://example.com" }] },
      channelIds: [],
      health: "outage",
      failureStreak: 1,
      lastCheckedAt: null,
      lastResultId: null,
      openIncidentId: null,
      createdBy: null,
      createdAt: now,
      updatedAt: now,
    });
    const created = await owner.post(`/api/projects/${projectId}/alert-rules`, {
      name: "Error budget",
      query: "SELECT count() AS value FROM logs WHERE level = 'error'",
      condition: { op: ">", threshold: 2 },
    });
    expect(created.status).toBe(201);
    const ruleId = (await json<{ id: string }>(created)).id;
    const open = async (source: "monitor" | "alert", sourceId: string) =>
      (
        await openSourceIncident(meta, domain, {
          projectId,
          source,
          sourceId,
          title: "Down",
          severity: "high",
          cause: null,
          at: new Date().toISOString(),
          event: { type: source === "monitor" ? "monitor_down" : "alert_fired" },
        })
      ).incident.id;
    const byMonitor = await open("monitor", monitorId);
    const byRule = await open("alert", ruleId);
    const manual = await create({ title: "By hand", severity: "medium" });
    const listed = async () =>
      new Map(
        (await json<Page<Incident>>(await viewer.get(`${base()}?limit=100`))).data.map((i) => [
          i.id,
          i.sourceName,
        ]),
      );
    const names = await listed();
    expect(names.get(byMonitor)).toBe("Checkout API");
    expect(names.get(byRule)).toBe("Error budget");
    expect(names.get(manual.id)).toBeNull();
    expect(manual.sourceName).toBeNull();
    const detail = await json<Incident>(await viewer.get(`${base()}/${byMonitor}`));
    expect(detail).toMatchObject({
      source: "monitor",
      sourceId: monitorId,
      sourceName: "Checkout API",
    });

    // A renamed rule is named as it is now; a deleted monitor has no name left.
    const renamed = await owner.patch(`/api/projects/${projectId}/alert-rules/${ruleId}`, {
      name: "Error budget (API)",
    });
    expect(renamed.status).toBe(200);
    await meta.repos.monitors.delete(monitorId);
    const after = await listed();
    expect(after.get(byRule)).toBe("Error budget (API)");
    expect(after.get(byMonitor)).toBeNull();
  });
});
