import { describe, expect, it } from "vitest";
import { componentHistory, type DayRow, firstHistoryDay, splitByUtcDay } from "./history.js";

const H = 3_600_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");

const row = (day: string, overrides: Partial<DayRow> = {}): DayRow => ({
  day,
  checksRun: 0,
  checksPassed: 0,
  checksInMaintenance: 0,
  downMs: 0,
  degradedMs: 0,
  maintenanceMs: 0,
  worstState: "operational",
  maintenance: false,
  ...overrides,
});

describe("splitByUtcDay", () => {
  it("cuts an interval at UTC midnights", () => {
    const from = Date.parse("2026-11-18T22:00:00Z");
    const to = Date.parse("2026-11-20T01:00:00Z");
    expect(splitByUtcDay(from, to)).toEqual([
      { day: "2026-11-18", ms: 2 * H },
      { day: "2026-11-19", ms: 24 * H },
      { day: "2026-11-20", ms: H },
    ]);
    expect(splitByUtcDay(to, to)).toEqual([]);
  });
});

describe("componentHistory", () => {
  const base = {
    createdAt: "2026-11-01T00:00:00.000Z",
    state: "operational" as const,
    stateChangedAt: "2026-11-01T00:00:00.000Z",
    hasMonitors: true,
    rows: new Map<string, DayRow>(),
    incidentsByDay: new Map(),
  };

  it("has 90 days ending today; days before the component existed have no data", () => {
    const { days } = componentHistory(base, NOW);
    expect(days).toHaveLength(90);
    expect(days[0]?.date).toBe(firstHistoryDay(NOW));
    expect(days.at(-1)?.date).toBe("2026-11-20");
    expect(days.find((d) => d.date === "2026-10-31")?.status).toBe("no_data");
    expect(days.find((d) => d.date === "2026-11-01")?.status).toBe("operational");
  });

  it("uptime is passed / run checks outside maintenance, over the day and the 90 days", () => {
    const rows = new Map([
      ["2026-11-19", row("2026-11-19", { checksRun: 4, checksPassed: 3, checksInMaintenance: 5 })],
      ["2026-11-20", row("2026-11-20", { checksRun: 4, checksPassed: 4 })],
    ]);
    const { days, uptime } = componentHistory({ ...base, rows }, NOW);
    expect(days.at(-2)).toMatchObject({ uptime: 75, checks: { run: 4, passed: 3 } });
    expect(days.at(-1)?.uptime).toBe(100);
    expect(uptime).toBe(87.5);
  });

  it("adds the current state's interval up to now to the days it covers", () => {
    const { days } = componentHistory(
      { ...base, state: "down", stateChangedAt: "2026-11-19T20:00:00.000Z" },
      NOW,
    );
    expect(days.at(-2)).toMatchObject({ status: "down", downMs: 4 * H });
    expect(days.at(-1)).toMatchObject({ status: "down", downMs: 12 * H });
  });

  it("without monitors, uptime is the observed time not down, maintenance left out", () => {
    const rows = new Map([
      ["2026-11-20", row("2026-11-20", { downMs: H, maintenanceMs: 2 * H, worstState: "down" })],
    ]);
    const { days } = componentHistory({ ...base, hasMonitors: false, rows }, NOW);
    // 12 h observed today, 2 h of them in maintenance: 9 of 10 h up.
    expect(days.at(-1)).toMatchObject({ status: "down", uptime: 90, maintenance: true });
  });

  it("maintenance time never colours a day", () => {
    const { days } = componentHistory(
      { ...base, state: "maintenance", stateChangedAt: "2026-11-20T08:00:00.000Z" },
      NOW,
    );
    expect(days.at(-1)).toMatchObject({ status: "operational", maintenance: true, downMs: 0 });
  });
});
