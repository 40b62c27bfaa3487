import type { SeriesState } from "../contracts/alert-catalog.js";
import type { AlertRuleDefinition } from "../meta/repositories/alert-rule-definition.js";
import { breaches, seriesKey } from "./definition.js";
import type { SeriesSample } from "./query-check.js";
import { type NextSeriesState, nextSeriesState, type SeriesStateSnapshot } from "./series-state.js";

/** A stored series as the plan needs it. */
export interface KnownSeries extends SeriesStateSnapshot {
  seriesKey: string;
  labels: Record<string, string>;
}

/** What one evaluation would do to one series. */
export interface PlannedSeries {
  seriesKey: string;
  labels: Record<string, string>;
  /** This evaluation's value; null when the series had no data (absent, or a null value). */
  value: number | null;
  breaching: boolean | "no_data_keep";
  previous: SeriesState;
  next: NextSeriesState;
}

const noDataBreach = (mode: AlertRuleDefinition["noData"]): boolean | "no_data_keep" =>
  mode === "keep" ? "no_data_keep" : mode === "alerting";

/**
 * One evaluation of a rule over its query's series (docs/design.md §4): each series breaches when its
 * value meets the condition; a null value follows `noData`. A known series missing from a
 * non-empty result does not breach (it resolves). An empty result is "no data": `ok` treats
 * every known series as not breaching, `alerting` treats the `{}` series and every known one
 * as breaching (honouring `for`), `keep` leaves all states unchanged.
 */
export function planSeries(
  rule: Pick<AlertRuleDefinition, "condition" | "forSeconds" | "noData">,
  samples: readonly SeriesSample[],
  known: readonly KnownSeries[],
  now: Date,
): PlannedSeries[] {
  const byKey = new Map(known.map((s) => [s.seriesKey, s]));
  const planned = new Map<string, PlannedSeries>();
  const plan = (
    key: string,
    labels: Record<string, string>,
    value: number | null,
    breaching: boolean | "no_data_keep",
  ) => {
    const prev = byKey.get(key);
    planned.set(key, {
      seriesKey: key,
      labels,
      value,
      breaching,
      previous: prev?.state ?? "ok",
      next: nextSeriesState(prev, breaching, now, rule.forSeconds),
    });
  };
  if (samples.length === 0) {
    const breaching = noDataBreach(rule.noData);
    if (breaching === true && !byKey.has(seriesKey({}))) plan(seriesKey({}), {}, null, true);
    for (const s of known) plan(s.seriesKey, s.labels, null, breaching);
    return [...planned.values()];
  }
  for (const sample of samples)
    plan(
      sample.seriesKey,
      sample.labels,
      sample.value,
      sample.value === null ? noDataBreach(rule.noData) : breaches(rule.condition, sample.value),
    );
  for (const s of known) if (!planned.has(s.seriesKey)) plan(s.seriesKey, s.labels, null, false);
  return [...planned.values()];
}
