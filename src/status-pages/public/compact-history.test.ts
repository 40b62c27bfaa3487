import { describe, expect, it } from "vitest";
import {
  DAY_STATUS_LETTER,
  type HistoryDay,
  StatusPageCompactData,
} from "../../contracts/status-page-data.js";
import { compactHistory, compactStatusPageData } from "./compact-history.js";
import { buildRichStatusPageData } from "./fixture.test-helper.js";

/** The day objects again, from the columns and the payload's incidents. */
function expand(
  from: string,
  history: ReturnType<typeof compactHistory>,
  refs: Map<string, HistoryDay["incidents"][number]>,
): HistoryDay[] {
  const letters = Object.entries(DAY_STATUS_LETTER);
  return [...history.status].map((letter, i) => {
    const date = new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000)
      .toISOString()
      .slice(0, 10);
    return {
      date,
      status: letters.find(([, l]) => l === letter)?.[0] as HistoryDay["status"],
      uptime: history.uptime[i] ?? null,
      checks: { run: history.checksRun[i] ?? -1, passed: history.checksPassed[i] ?? -1 },
      downMs: history.downMs[date] ?? 0,
      degradedMs: history.degradedMs[date] ?? 0,
      maintenance: history.maintenance.includes(date),
      incidents: (history.incidents[date] ?? []).map(
        (id) => refs.get(id) ?? { id, title: "?", severity: "low" },
      ),
    };
  });
}

describe("compactHistory", () => {
  const data = buildRichStatusPageData();

  it("keeps every fact of every day: the columns expand to the day objects", () => {
    const refs = new Map(
      data.incidents.map((i) => [i.id, { id: i.id, title: i.title, severity: i.severity }]),
    );
    for (const component of data.services)
      expect(expand(data.history.from, compactHistory(component.history), refs)).toEqual(
        component.history,
      );
  });

  it("makes a payload valid against its documented schema, the rest unchanged", () => {
    const compact = compactStatusPageData(data);
    expect(StatusPageCompactData.parse(compact)).toEqual(compact);
    expect({ ...compact, services: [] }).toEqual({ ...data, services: [] });
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(data).length / 3);
  });
});
