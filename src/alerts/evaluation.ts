import type { AlertRuleState, SeriesState } from "../contracts/alert-catalog.js";
import type { AlertRuleRecord } from "../meta/repositories/alert-rules.js";
import type { AlertSeriesRecord } from "../meta/repositories/alert-series.js";
import { intervalMs, seriesKeyHash } from "./definition.js";
import type { SeriesSample } from "./query-check.js";
import { planSeries } from "./series-plan.js";

/** What the rule's query gave: series, or an error (the query's text, never a fire or resolve). */
export type QueryOutcome = { ok: true; samples: SeriesSample[] } | { ok: false; error: string };

/** A series event that notifies (unless muted): a fire, a resolve, a reminder; or a pending. */
export interface SeriesChange {
  kind: "pending" | "fired" | "resolved" | "renotified";
  key: string;
  keyHash: string;
  labels: Record<string, string>;
  value: number | null;
  /** The fire this change belongs to (for a resolve or reminder, the series' firedAt). */
  firedAt: string | null;
  /** The incident the series was attached to before this evaluation. */
  incidentId: string | null;
}

/** Everything one evaluation decides, before it is written in one transaction. */
export interface EvaluationPlan {
  muted: boolean;
  state: AlertRuleState;
  lastValue: number | null;
  lastSeries: number;
  lastError: string | null;
  /** Consecutive failed evaluations after this one, and since when they fail (null: it worked). */
  failures: number;
  failingSince: string | null;
  /** Series rows to write (their incidentId may still be set by the incident step). */
  upserts: AlertSeriesRecord[];
  /** Keys of series rows to delete: back to ok and absent from the result. */
  deletes: string[];
  changes: SeriesChange[];
  /** Rule-level events: entering error, recovering from it, entering no data. */
  ruleEvents: { kind: "error" | "recovered_from_error" | "no_data"; message: string }[];
  /** Series firing after this evaluation. */
  firing: AlertSeriesRecord[];
}

/** Muted now: muted indefinitely, or until a time still ahead (an expired mute counts as unmuted). */
export function isMuted(rule: Pick<AlertRuleRecord, "muted" | "mutedUntil">, now: Date): boolean {
  if (!rule.muted) return false;
  return rule.mutedUntil === null || Date.parse(rule.mutedUntil) > now.getTime();
}

const RANK: Record<SeriesState, number> = { ok: 0, pending: 1, firing: 2 };

/**
 * Applies one evaluation to a rule's series: each series' next state as preview plans it
 * (`planSeries`: condition, `for`, noData, missing series), then what to record and notify:
 * events, reminders, mute, the rows to write or drop and the rule's state. A query error
 * changes no series.
 */
export function planEvaluation(
  rule: AlertRuleRecord,
  known: readonly AlertSeriesRecord[],
  outcome: QueryOutcome,
  now: Date,
): EvaluationPlan {
  const at = now.toISOString();
  const muted = isMuted(rule, now);
  const { definition } = rule;
  const firingBefore = known.filter((s) => s.state === "firing");
  if (!outcome.ok) {
    return {
      muted,
      state: "error",
      lastValue: null,
      lastSeries: rule.lastSeries ?? 0,
      lastError: outcome.error,
      failures: rule.failures + 1,
      failingSince: rule.failingSince ?? at,
      upserts: [],
      deletes: [],
      changes: [],
      // Once on entering the error state, not on every failed evaluation.
      ruleEvents: rule.state === "error" ? [] : [{ kind: "error", message: outcome.error }],
      firing: firingBefore,
    };
  }
  const ruleEvents: EvaluationPlan["ruleEvents"] = [];
  if (rule.state === "error")
    ruleEvents.push({ kind: "recovered_from_error", message: "the query works again" });
  const { samples } = outcome;
  const noData = samples.length === 0;
  // Entering no data: the previous evaluation had series (or there was none yet).
  if (noData && rule.lastSeries !== 0)
    ruleEvents.push({
      kind: "no_data",
      message: `the query returned no rows (noData: ${definition.noData})`,
    });

  const inResult = new Set(samples.map((s) => s.seriesKey));
  const byKey = new Map(known.map((s) => [s.seriesKey, s]));
  const upserts: AlertSeriesRecord[] = [];
  const deletes: string[] = [];
  const changes: SeriesChange[] = [];
  const renotifyMs = definition.renotifyMinutes * 60_000;
  for (const planned of planSeries(definition, samples, known, now)) {
    const { seriesKey: key, labels, value, next } = planned;
    const prev = byKey.get(key);
    const change = (kind: SeriesChange["kind"], firedAt: string | null): SeriesChange => ({
      kind,
      key,
      keyHash: seriesKeyHash(key),
      labels,
      value,
      firedAt,
      incidentId: prev?.incidentId ?? null,
    });
    let lastNotifiedAt = prev?.lastNotifiedAt ?? null;
    if (next.transition === "pending") changes.push(change("pending", null));
    if (next.transition === "fired") {
      changes.push(change("fired", next.firedAt));
      lastNotifiedAt = muted ? null : at;
    }
    if (next.transition === "resolved") changes.push(change("resolved", prev?.firedAt ?? null));
    if (next.transition === "none" && next.state === "firing" && renotifyMs > 0 && !muted) {
      // A fire made while muted is reminded of from its firedAt once the mute ends.
      const since = Date.parse(lastNotifiedAt ?? next.firedAt ?? at);
      if (now.getTime() - since >= renotifyMs) {
        changes.push(change("renotified", next.firedAt));
        lastNotifiedAt = at;
      }
    }
    const present = inResult.has(key);
    if (planned.breaching === "no_data_keep" && !present) continue;
    if (next.state === "ok" && !present) {
      if (prev) deletes.push(key);
      continue;
    }
    upserts.push({
      ruleId: rule.id,
      seriesKey: key,
      labels,
      state: next.state,
      pendingSince: next.pendingSince,
      firedAt: next.firedAt,
      lastValue: value,
      lastEvaluatedAt: at,
      lastNotifiedAt: next.state === "firing" ? lastNotifiedAt : null,
      incidentId: next.state === "firing" ? (prev?.incidentId ?? null) : null,
    });
  }
  // Series the evaluation left alone (noData keep) keep their state and count towards the rule's.
  const written = new Set([...upserts.map((s) => s.seriesKey), ...deletes]);
  const after = [...upserts, ...known.filter((s) => !written.has(s.seriesKey))];
  const worst = after.reduce<SeriesState>(
    (state, s) => (RANK[s.state] > RANK[state] ? s.state : state),
    "ok",
  );
  const values = samples.flatMap((s) => (s.value === null ? [] : [s.value]));
  return {
    muted,
    state: worst,
    lastValue: values.length > 0 ? Math.max(...values) : null,
    lastSeries: samples.length,
    lastError: null,
    failures: 0,
    failingSince: null,
    upserts,
    deletes,
    changes,
    ruleEvents,
    firing: after.filter((s) => s.state === "firing"),
  };
}

/** A failing rule is evaluated at most this seldom, or at its interval if that is longer. */
export const MAX_BACKOFF_MS = 15 * 60_000;

/**
 * When a failing rule is evaluated next: after its second failure in a row it waits twice its
 * interval, then four times, and so on up to MAX_BACKOFF_MS, so a rule whose query keeps failing
 * or timing out stops holding an engine slot every interval. Null while it is not backing off
 * (its evaluations work, or failed once: one error may be the engine's, not the rule's).
 */
export function backoffUntil(
  rule: Pick<AlertRuleRecord, "failures" | "lastEvaluatedAt" | "definition">,
): number | null {
  if (rule.failures < 2 || rule.lastEvaluatedAt === null) return null;
  const interval = intervalMs(rule.definition.interval);
  const delay = Math.min(interval * 2 ** (rule.failures - 1), Math.max(interval, MAX_BACKOFF_MS));
  return Date.parse(rule.lastEvaluatedAt) + delay;
}

/**
 * Whether a scheduled evaluation at `now` waits out the rule's backoff. Half an interval early
 * counts as due: evaluations start a little after their slot, and the slot nearest the time is its.
 */
export function isBackingOff(
  rule: Pick<AlertRuleRecord, "failures" | "lastEvaluatedAt" | "definition">,
  now: Date,
): boolean {
  const until = backoffUntil(rule);
  return until !== null && now.getTime() < until - intervalMs(rule.definition.interval) / 2;
}
