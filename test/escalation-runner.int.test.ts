import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EscalationRunDeps } from "../src/escalation/escalation-runner.js";
import { runEscalations } from "../src/escalation/escalation-runner.js";
import { restartEscalation } from "../src/escalation/escalation-start.js";
import {
  appendIncidentEvents,
  resetResponse,
  stopEscalationIn,
} from "../src/incidents/incident-lifecycle.js";
import { resolveSourceIncident } from "../src/incidents/source-incidents.js";
import { openMetaDatabase } from "../src/meta/database.js";
import { createMetaStore, type MetaAccess, type MetaStore } from "../src/meta/meta-store.js";
import { escalationFixture } from "./helpers/escalation-fixture.js";
import { findPostgresBin, startThrowawayPostgres } from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-dir.js";

// The escalation worker's passes on a fake clock (docs/escalation.md): steps and delays, repeat,
// stop on acknowledge and on resolve, and two workers sending each step once.

const binDir = findPostgresBin();
const engines: { name: string; open(): Promise<{ store: MetaStore; close(): Promise<void> }> }[] = [
  {
    name: "SQLite",
    async open() {
      const dir = makeTempDir();
      const store = createMetaStore(openMetaDatabase({ dataDir: dir.path }));
      await store.migrate();
      return {
        store,
        close: async () => {
          await store.close();
          dir.remove();
        },
      };
    },
  },
];
if (binDir)
  engines.push({
    name: "PostgreSQL",
    async open() {
      const postgres = await startThrowawayPostgres(binDir);
      const store = createMetaStore(
        openMetaDatabase({ url: postgres.url, dataDir: "/nonexistent" }),
      );
      await store.migrate();
      return {
        store,
        close: async () => {
          await store.close();
          await postgres.stop();
        },
      };
    },
  });

describe("escalation runner on SQLite", () => {
  let store: MetaStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await (engines[0] as (typeof engines)[number]).open());
  });
  afterAll(async () => close?.());

  it("sends each step after its delay, to its channels, with an acknowledge link each", async () => {
    const f = await escalationFixture(store);
    const { a, b, c } = f.channels;
    const id = await f.open([
      { delayMinutes: 0, channelIds: [a] },
      { delayMinutes: 5, channelIds: [b, c] },
    ]);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 1, deliveries: 1 });
    expect(await f.sent(id)).toEqual([{ channelId: a, step: "1/1", ack: true }]);
    f.at(4);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 0, deliveries: 0 });
    f.at(5);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 1, deliveries: 2, completed: 1 });
    expect(
      (await f.sent(id)).slice(1).sort((x, y) => x.channelId.localeCompare(y.channelId)),
    ).toEqual([b, c].sort().map((channelId) => ({ channelId, step: "2/1", ack: true })));
    f.at(60);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 0, stopped: 0 });
    expect(await f.timeline(id)).toEqual([
      expect.stringMatching(
        /^escalated to step 1 of 2 — Policy .*: monitor.down queued for 1 channel\(s\)$/,
      ),
      expect.stringMatching(/^escalated to step 2 of 2 — .*queued for 2 channel\(s\)$/),
    ]);
    const state = await store.repos.incidentEscalations.findByIncident(id);
    expect(state).toMatchObject({ status: "completed", nextAt: null });
  });

  it("repeats the steps `repeat` more times, each delay after the previous step", async () => {
    const f = await escalationFixture(store);
    const { a, b } = f.channels;
    const id = await f.open(
      [
        { delayMinutes: 1, channelIds: [a] },
        { delayMinutes: 2, channelIds: [b] },
      ],
      1,
    );
    const sends: string[] = [];
    for (let minute = 0; minute <= 10; minute++) {
      f.at(minute);
      const pass = await runEscalations(f.deps);
      if (pass.steps > 0) sends.push(`${minute}:${(await f.sent(id)).at(-1)?.step}`);
    }
    // Step 1 a minute after the incident opened, step 2 two after it, then the second round.
    expect(sends).toEqual(["1:1/1", "3:2/1", "4:1/2", "6:2/2"]);
    expect((await f.sent(id)).map((s) => s.channelId)).toEqual([a, b, a, b]);
    expect((await f.timeline(id))[2]).toMatch(/^escalated to step 1 of 2 \(round 2 of 2\)/);
  });

  it("stops for good once the incident is acknowledged, and says so on its timeline", async () => {
    const f = await escalationFixture(store);
    const { a, b } = f.channels;
    const id = await f.open([
      { delayMinutes: 0, channelIds: [a] },
      { delayMinutes: 10, channelIds: [b] },
    ]);
    await runEscalations(f.deps);
    f.at(3);
    const by = { kind: "link" as const, id: a, label: "A (webhook)" };
    expect(await store.repos.incidents.acknowledge(id, { at: f.iso(3), by })).toBe(true);
    expect(await runEscalations(f.deps)).toMatchObject({ stopped: 1, steps: 0 });
    f.at(30);
    expect(await runEscalations(f.deps)).toMatchObject({ stopped: 0, steps: 0 });
    expect(await f.sent(id)).toEqual([{ channelId: a, step: "1/1", ack: true }]);
    expect((await f.timeline(id)).at(-1)).toBe("escalation stopped: acknowledged");
    expect(await store.repos.incidentEscalations.findByIncident(id)).toMatchObject({
      status: "stopped",
      stopReason: "acknowledged",
      nextAt: null,
    });
  });

  it("stops once the incident is resolved, even when a step is due at that moment", async () => {
    const f = await escalationFixture(store);
    const { a, b } = f.channels;
    const id = await f.open([
      { delayMinutes: 0, channelIds: [a] },
      { delayMinutes: 2, channelIds: [b] },
    ]);
    await runEscalations(f.deps);
    f.at(2);
    const incident = await store.repos.incidents.findById(id);
    await store.transaction((tx) =>
      resolveSourceIncident(tx, f.deps, {
        source: "monitor",
        sourceId: incident?.sourceId ?? "",
        at: f.iso(2),
        event: { type: "monitor_recovered" },
      }),
    );
    // The resolve stopped it in its own transaction: the worker has nothing left to stop.
    expect(await store.repos.incidentEscalations.findByIncident(id)).toMatchObject({
      status: "stopped",
      stopReason: "resolved",
      nextAt: null,
    });
    expect(await runEscalations(f.deps)).toMatchObject({ stopped: 0, steps: 0 });
    expect((await f.sent(id)).map((s) => s.step)).toEqual(["1/1"]);
    expect((await f.timeline(id)).slice(1)).toEqual(["escalation stopped: resolved"]);
  });

  it("lets steps go by unsent while the incident's monitor is paused, and sends again once resumed", async () => {
    const f = await escalationFixture(store);
    const { a, b, c } = f.channels;
    const id = await f.open([
      { delayMinutes: 0, channelIds: [a] },
      { delayMinutes: 5, channelIds: [b] },
      { delayMinutes: 5, channelIds: [c] },
    ]);
    const monitorId = (await store.repos.incidents.findById(id))?.sourceId ?? "";
    await store.repos.monitors.setStatus(monitorId, "paused", f.iso(0), { clearStreak: false });
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 1, deliveries: 0 });
    f.at(5);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 1, deliveries: 0 });
    expect(await f.sent(id)).toEqual([]);
    // The incident stays open while paused; once resumed, the next step is sent.
    await store.repos.monitors.setStatus(monitorId, "active", f.iso(6), { clearStreak: true });
    f.at(10);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 1, deliveries: 1, completed: 1 });
    expect(await f.sent(id)).toEqual([{ channelId: c, step: "3/1", ack: true }]);
    expect(await f.timeline(id)).toEqual([
      expect.stringMatching(/^escalation step 1 of 3 — .* not sent: the monitor is paused$/),
      expect.stringMatching(/^escalation step 2 of 3 — .* not sent: the monitor is paused$/),
      expect.stringMatching(/^escalated to step 3 of 3 — .*queued for 1 channel\(s\)$/),
    ]);
    const paused = (await store.repos.incidents.listEvents([id], ["escalated"]))[0];
    expect(paused?.data).toMatchObject({ step: 1, channelIds: [], paused: true });
  });

  it("restarts from step 1 on a reopen, the first step its delay after the reopen", async () => {
    const f = await escalationFixture(store);
    const { a, b } = f.channels;
    const id = await f.open([
      { delayMinutes: 0, channelIds: [a] },
      { delayMinutes: 10, channelIds: [b] },
    ]);
    await runEscalations(f.deps);
    f.at(3);
    const by = { kind: "link" as const, id: a, label: "A (webhook)" };
    await store.transaction(async (tx) => {
      await tx.repos.incidents.acknowledge(id, { at: f.iso(3), by });
      await stopEscalationIn(tx, f.deps, id, "acknowledged", f.iso(3));
    });
    f.at(20);
    const incident = await store.repos.incidents.findById(id);
    const entry = await store.transaction((tx) =>
      resetResponse(
        tx,
        incident ?? ({} as never),
        { at: f.iso(20), actor: { kind: "system", id: null } },
        restartEscalation,
      ),
    );
    expect(entry.message).toMatch(
      /^acknowledgement by A \(webhook\) cleared; escalation restarted from step 1 — Policy /,
    );
    expect((await store.repos.incidents.findById(id))?.acknowledgedAt).toBeNull();
    expect(await store.repos.incidentEscalations.findByIncident(id)).toMatchObject({
      status: "active",
      stopReason: null,
      step: 0,
      round: 1,
      nextAt: f.iso(20),
    });
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 1, deliveries: 1 });
    f.at(30);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 1, deliveries: 1, completed: 1 });
    expect((await f.sent(id)).map((x) => x.step)).toEqual(["1/1", "1/1", "2/1"]);
  });

  it("skips a step's channels deleted since, and takes a dead worker's claim back", async () => {
    const f = await escalationFixture(store);
    const { a, b } = f.channels;
    const id = await f.open([{ delayMinutes: 0, channelIds: [a, b] }]);
    await store.repos.notificationChannels.delete(b);
    // A worker claims the step and dies before sending it: its claim runs out.
    expect(await store.repos.incidentEscalations.claimDue(f.iso(0), 10, f.iso(1))).toHaveLength(1);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 0 });
    f.at(1);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 1, deliveries: 1 });
    expect(await f.sent(id)).toEqual([{ channelId: a, step: "1/1", ack: true }]);
    expect((await f.timeline(id))[0]).toMatch(/1 channel\(s\); 1 deleted channel\(s\) skipped$/);
  });
});

describe.each(engines)("two escalation workers on $name", (engine) => {
  let store: MetaStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await engine.open());
  }, 60_000);
  afterAll(async () => close?.());

  it("send each due step once between them", async () => {
    const f = await escalationFixture(store);
    const { a, b } = f.channels;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        await f.open([
          { delayMinutes: 0, channelIds: [a] },
          { delayMinutes: 1, channelIds: [b] },
        ]),
      );
    for (const minute of [0, 1]) {
      f.at(minute);
      const passes = await Promise.all([runEscalations(f.deps), runEscalations(f.deps)]);
      expect(passes.reduce((n, p) => n + p.steps, 0)).toBe(ids.length);
    }
    for (const id of ids)
      expect((await f.sent(id)).map((s) => `${s.channelId === a ? "a" : "b"}${s.step}`)).toEqual([
        "a1/1",
        "b2/1",
      ]);
  });

  it("send nothing when an acknowledge commits between the worker's read and its write", async () => {
    const f = await escalationFixture(store);
    const { a, b } = f.channels;
    const id = await f.open([
      { delayMinutes: 0, channelIds: [a] },
      { delayMinutes: 5, channelIds: [b] },
    ]);
    await runEscalations(f.deps);
    f.at(5);
    const stale = await store.repos.incidents.findById(id);
    // An acknowledge as the API and links write it: the escalation stops in its transaction.
    const acknowledge = () =>
      store.transaction(async (tx) => {
        const at = f.iso(5);
        const by = { kind: "user" as const, id: null, label: null };
        expect(await tx.repos.incidents.acknowledge(id, { at, by })).toBe(true);
        await appendIncidentEvents(tx, f.deps, id, [
          { type: "acknowledged", at, actor: { kind: "system", id: null } },
        ]);
        expect(await stopEscalationIn(tx, f.deps, id, "acknowledged", at)).toBe(true);
      });
    // The worker claims the step and reads the incident not yet acknowledged; the acknowledge
    // commits right after (PostgreSQL: really in between, on another connection; SQLite, one
    // writer: after the claim, the worker handed the incident as it was before).
    const concurrent = engine.name === "PostgreSQL";
    const racing = (tx: MetaAccess): MetaAccess => ({
      ...tx,
      repos: {
        ...tx.repos,
        incidents: {
          ...tx.repos.incidents,
          findById: async (incidentId: string) => {
            if (incidentId !== id) return tx.repos.incidents.findById(incidentId);
            if (concurrent) await acknowledge();
            return stale;
          },
        },
      },
    });
    const deps: EscalationRunDeps = {
      ...f.deps,
      meta: {
        ...store,
        repos: {
          ...store.repos,
          incidentEscalations: {
            ...store.repos.incidentEscalations,
            claimDue: async (...args) => {
              const claimed = await store.repos.incidentEscalations.claimDue(...args);
              if (!concurrent) await acknowledge();
              return claimed;
            },
          },
        },
        transaction: (fn) => store.transaction((tx) => fn(racing(tx))),
      },
    };
    expect(await runEscalations(deps)).toMatchObject({ steps: 0, deliveries: 0, lost: 1 });
    f.at(30);
    expect(await runEscalations(f.deps)).toMatchObject({ steps: 0, stopped: 0 });
    expect((await f.sent(id)).map((s) => s.step)).toEqual(["1/1"]);
    expect((await f.timeline(id)).slice(1)).toEqual(["escalation stopped: acknowledged"]);
    expect(await store.repos.incidentEscalations.findByIncident(id)).toMatchObject({
      status: "stopped",
      stopReason: "acknowledged",
    });
  });
});
