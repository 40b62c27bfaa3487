import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckResultView, MonitorView } from "../src/contracts/monitors.js";
import type { Page } from "../src/contracts/pagination.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
const tokenOf = (monitor: MonitorView) =>
  new URL(monitor.pingUrl ?? "").pathname.split("/")[2] ?? "";

/**
 * Missed pings on a fake clock (docs/heartbeats.md): the watcher records one failed check per
 * period while pings stay away, alertAfter counts them, the outage opens an incident and the
 * next success ping ends it.
 */
describe("heartbeat deadlines", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;
  let nowMs = Date.UTC(2026, 5, 1, 12, 0, 0);
  const clock = { now: () => new Date(nowMs) };
  const base = () => `/api/projects/${projectId}/monitors`;
  const monitor = async (id: string) => json<MonitorView>(await owner.get(`${base()}/${id}`));
  const results = async (id: string) =>
    (await json<Page<CheckResultView>>(await owner.get(`${base()}/${id}/results`))).data;
  /** One watcher pass at the fake clock's time (twice: a pass already running saw the old time). */
  async function watch() {
    const watcher = service.deps.heartbeats.watcher;
    if (!watcher) throw new Error("no watcher on this node");
    await watcher.runOnce();
    await watcher.runOnce();
  }

  beforeAll(async () => {
    ({ service, owner, projectId } = await startWithRoles(dir.path, {}, { clock }));
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("records a missed ping once per period, opens the outage after alertAfter, and a ping recovers", async () => {
    const created = await json<MonitorView>(
      await owner.post(base(), {
        name: "Hourly export",
        type: "heartbeat",
        period: "1h",
        grace: "5m",
        alertAfter: 2,
      }),
    );
    const createdAt = nowMs;
    // Within period + grace nothing happens.
    nowMs = createdAt + 65 * 60_000 - 1;
    await watch();
    expect(await results(created.id)).toHaveLength(0);

    // The deadline passes: one missed check, still below alertAfter.
    nowMs = createdAt + 65 * 60_000 + 300;
    await watch();
    await watch();
    let recorded = await results(created.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ trigger: "missed", passed: false });
    expect(recorded[0]?.steps[0]?.assertions[0]).toMatchObject({
      type: "heartbeat",
      passed: false,
      actual: null,
    });
    expect(recorded[0]?.steps[0]?.assertions[0]?.message).toContain(
      `no ping yet (created ${new Date(createdAt).toISOString()}`,
    );
    expect(await monitor(created.id)).toMatchObject({ health: "passing", failureStreak: 1 });

    // Half a period later: nothing new. A whole period later: the second miss opens the outage.
    nowMs += 30 * 60_000;
    await watch();
    expect(await results(created.id)).toHaveLength(1);
    nowMs = createdAt + 125 * 60_000 + 10;
    await watch();
    recorded = await results(created.id);
    expect(recorded.map((r) => r.trigger)).toEqual(["missed", "missed"]);
    const down = await monitor(created.id);
    expect(down).toMatchObject({ health: "outage", failureStreak: 2 });
    const incident = await json<{ title: string; status: string; cause: string }>(
      await owner.get(`/api/projects/${projectId}/incidents/${down.openIncidentId}`),
    );
    expect(incident).toMatchObject({ title: "Hourly export is down", status: "active" });
    expect(incident.cause).toContain("no ping yet");

    // A success ping ends it and moves the deadline a period and the grace from now.
    nowMs += 60_000;
    expect((await service.fetch(`/ping/${tokenOf(created)}`)).status).toBe(200);
    const up = await monitor(created.id);
    expect(up).toMatchObject({ health: "passing", openIncidentId: null });
    expect(up.lastPingAt).toBe(new Date(nowMs).toISOString());
    nowMs += 64 * 60_000;
    await watch();
    expect(await results(created.id)).toHaveLength(3);
  });

  it("after a long stop records one miss, not a backlog", async () => {
    const created = await json<MonitorView>(
      await owner.post(base(), {
        name: "Every minute",
        type: "heartbeat",
        period: "1m",
        grace: "0s",
      }),
    );
    nowMs += 24 * 3600_000;
    await watch();
    expect((await results(created.id)).length).toBe(1);
  });

  it("a paused heartbeat misses nothing; resumed, it waits a whole period again", async () => {
    const created = await json<MonitorView>(
      await owner.post(base(), { name: "Paused", type: "heartbeat", period: "5m", grace: "0s" }),
    );
    await owner.post(`${base()}/${created.id}/pause`);
    nowMs += 60 * 60_000;
    await watch();
    expect(await results(created.id)).toHaveLength(0);
    await owner.post(`${base()}/${created.id}/resume`);
    nowMs += 5 * 60_000 - 1;
    await watch();
    expect(await results(created.id)).toHaveLength(0);
    nowMs += 2;
    await watch();
    expect(await results(created.id)).toHaveLength(1);
  });
});

describe("heartbeat ping limits", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;

  beforeAll(async () => {
    ({ service, owner, projectId } = await startWithRoles(dir.path, {
      VIGIL_HEARTBEAT_PINGS_PER_MINUTE: "3",
      VIGIL_HEARTBEAT_PINGS_PER_MINUTE_PER_ADDRESS: "8",
    }));
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("limits pings per token, then per address, known tokens or not", async () => {
    const create = async (name: string) =>
      json<MonitorView>(
        await owner.post(`/api/projects/${projectId}/monitors`, {
          name,
          type: "heartbeat",
          period: "1h",
        }),
      );
    const [a, b] = [tokenOf(await create("a")), tokenOf(await create("b"))];
    const statuses = async (paths: string[]) => {
      const out: number[] = [];
      for (const path of paths) out.push((await service.fetch(`/ping/${path}`)).status);
      return out;
    };
    expect(await statuses([a, a, `${a}/start`, a])).toEqual([200, 200, 200, 429]);
    const limited = await service.fetch(`/ping/${a}/fail`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another token has its own budget; unknown tokens count against the address too.
    expect(await statuses([b, "B".repeat(43), "C".repeat(43)])).toEqual([200, 404, 404]);
    expect((await service.fetch(`/ping/${b}`)).status).toBe(429);
  });
});
