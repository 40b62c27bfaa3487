import type { EscalationRunDeps } from "../../src/escalation/escalation-runner.js";
import { startEscalation } from "../../src/escalation/escalation-start.js";
import { openSourceIncident } from "../../src/incidents/source-incidents.js";
import { AppUrl } from "../../src/lib/app-url.js";
import { newId } from "../../src/lib/ids.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { EscalationStepRecord } from "../../src/meta/repositories/escalation-policies.js";
import type { MonitorNotification } from "../../src/notifications/notification-payloads.js";

/** A project with three channels on a store, a fake clock, and incidents opened under a policy. */
export interface EscalationFixture {
  deps: EscalationRunDeps;
  projectId: string;
  channels: { a: string; b: string; c: string };
  /** Moves the fake clock to t0 + `minutes`. */
  at(minutes: number): void;
  iso(minutes: number): string;
  /** Opens a monitor incident at the clock's time under a new policy; returns its id. */
  open(steps: EscalationStepRecord[], repeat?: number): Promise<string>;
  /** The deliveries queued for an incident, oldest first: channel and escalation step. */
  sent(incidentId: string): Promise<{ channelId: string; step: string; ack: boolean }[]>;
  timeline(incidentId: string): Promise<string[]>;
}

let seq = 0;

export async function escalationFixture(store: MetaStore): Promise<EscalationFixture> {
  seq += 1;
  const t0 = Date.UTC(2026, 2, 1, 9, 0, 0);
  let now = t0;
  const clock = { now: () => new Date(now) };
  const iso = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
  const { repos } = store;
  const orgId = `org_escrun${seq}`;
  const projectId = `prj_escrun${seq}`;
  await repos.organizations.insert({ id: orgId, name: orgId, createdAt: iso(0) });
  await repos.projects.insert({ id: projectId, orgId, name: "p", createdAt: iso(0) });
  const channel = async (name: string) => {
    const id = newId("chn");
    await repos.notificationChannels.insert({
      id,
      projectId,
      name,
      type: "webhook",
      config: {},
      secret: null,
      createdAt: iso(0),
      updatedAt: iso(0),
    });
    return id;
  };
  const channels = { a: await channel("A"), b: await channel("B"), c: await channel("C") };
  const deps: EscalationRunDeps = {
    meta: store,
    clock,
    newId,
    appUrl: new AppUrl("https://vigil.example"),
  };
  return {
    deps,
    projectId,
    channels,
    at(minutes) {
      now = t0 + minutes * 60_000;
    },
    iso,
    async open(steps, repeat = 0) {
      const policyId = newId("esc");
      await repos.escalationPolicies.insert({
        id: policyId,
        projectId,
        name: `Policy ${policyId.slice(-4)}`,
        steps,
        repeat,
        createdBy: null,
        createdAt: iso(0),
        updatedAt: iso(0),
      });
      const monitorId = newId("mon");
      await repos.monitors.insert({
        id: monitorId,
        projectId,
        name: "Checkout",
        status: "active",
        definition: { type: "api", escalationPolicyId: policyId },
        channelIds: [],
        health: "outage",
        failureStreak: 1,
        lastCheckedAt: null,
        lastResultId: null,
        openIncidentId: null,
        createdBy: null,
        createdAt: iso(0),
        updatedAt: iso(0),
      });
      const startedAt = clock.now().toISOString();
      return store.transaction(async (tx) => {
        const { incident } = await openSourceIncident(
          tx,
          { clock, newId },
          {
            projectId,
            source: "monitor",
            sourceId: monitorId,
            title: "Checkout is down",
            severity: "high",
            cause: "status_code equals 200: got 503",
            at: startedAt,
            event: { type: "monitor_down", message: "503" },
          },
        );
        const notification: MonitorNotification = {
          event: "monitor.down",
          projectId,
          monitor: { id: monitorId, name: "Checkout", type: "api", url: "https://shop.example" },
          incident: { id: incident.id, startedAt, resolvedAt: null, durationMs: null },
          check: {
            resultId: "run_1",
            startedAt,
            failedStep: "home",
            reason: "503",
            statusCode: 503,
          },
        };
        await startEscalation(tx, { incident, policyId, notification, now: startedAt });
        return incident.id;
      });
    },
    async sent(incidentId) {
      const deliveries = await repos.notificationDeliveries.listByIncidents([incidentId]);
      return deliveries.map((d) => {
        const payload = d.payload as {
          escalation?: { step: number; round: number };
          acknowledgeUrl?: string;
        };
        const e = payload.escalation;
        return {
          channelId: d.channelId,
          step: e ? `${e.step}/${e.round}` : "none",
          ack: (payload.acknowledgeUrl ?? "").startsWith("https://vigil.example/ack/"),
        };
      });
    },
    async timeline(incidentId) {
      const events = await repos.incidents.listEvents([incidentId]);
      return events.filter((e) => e.type.startsWith("escalat")).map((e) => e.message ?? "");
    },
  };
}
