import {
  ERROR_SEVERITIES,
  type ErrorSeverity,
  type ErrorStatus,
} from "../contracts/error-groups.js";
import { type KeyLock, processLocalLock } from "../meta/key-lock.js";
import type { TelemetryExecutor } from "../telemetry/executor.js";
import { quoteIdentifier } from "../telemetry/executor.js";
import { occurrenceRow } from "./derive/error-occurrences.js";
import { occurrenceKey } from "./derive/occurrence-key.js";
import type { ErrorOccurrence, Row, Source } from "./ingest-batch.js";
import { millisToDateTime } from "./otlp/values.js";

/** The current state of one error group, as its latest error_groups row holds it. */
export interface ErrorGroup {
  projectId: string;
  fingerprint: string;
  exceptionType: string;
  message: string;
  stacktrace: string;
  culprit: string;
  firstSeenMs: number;
  lastSeenMs: number;
  occurrenceCount: number;
  status: ErrorStatus;
  resolvedAtMs: number;
  severity: ErrorSeverity;
  services: string[];
  sampleTraceId: string;
  sampleSpanId: string;
  source: Source;
}

/** A group that appeared for the first time, or came back after being resolved. */
export interface ErrorTransition {
  kind: "created" | "regressed";
  group: ErrorGroup;
}

const MAX_SERVICES = 50;
/**
 * How far apart the two sources of one occurrence may be stamped and still be found at ingest:
 * an exception event and its log record fall within their span, which is rarely an hour long.
 */
export const SAME_OCCURRENCE_MS = 3_600_000;
const CACHE_LIMIT = 20_000;

const severityRank = (s: ErrorSeverity) => ERROR_SEVERITIES.indexOf(s);

/**
 * Owns the error_groups table: folds occurrences into groups (count, first/last seen, services,
 * sample, regression of resolved groups) and applies status and severity changes. Every change
 * runs one at a time through one queue, so a count is never lost between a read and a write; the
 * latest state of recent groups stays cached, and the table is the truth after a restart.
 *
 * With several ingesting nodes (a shared lock), each change also holds its groups' locks from
 * the read to the write, and reads the table instead of the cache: another node may have
 * written the group since.
 */
export class ErrorGroupStore {
  private readonly cache = new Map<string, ErrorGroup>();
  private tail: Promise<unknown> = Promise.resolve();
  private lastVersion = 0;

  constructor(
    private readonly executor: TelemetryExecutor,
    private readonly lock: KeyLock = processLocalLock,
  ) {}

  /** Runs a change holding its groups' locks (across nodes when the lock is shared). */
  private guarded<T>(
    groups: readonly { projectId: string; fingerprint: string }[],
    work: () => Promise<T>,
  ): Promise<T> {
    // Text without NUL (PostgreSQL rejects it): project ids never contain ':'.
    const keys = groups.map((g) => `error-group:${g.projectId}:${g.fingerprint}`);
    return this.serialize(() => this.lock.withKeys(keys, work));
  }

  /** Runs changes one after another. */
  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Stores the occurrences' rows (error_occurrences), folds them into their groups and writes the
   * new versions; resolves with what changed. A source of an occurrence already stored (the other
   * source of the same span: occurrenceKey) is stored and linked, but not counted again. The check
   * and the insert run under the groups' locks, so two sources arriving at once on two nodes
   * still count once.
   *
   * The rows are stored before the groups. When the group write fails, the request fails and the
   * exporter sends it again: the retry finds its own first attempt's rows (same occurrence, same
   * kind of source, same time), counts them as its own, not as a second source, and does not
   * store them again.
   */
  record(occurrences: readonly ErrorOccurrence[]): Promise<ErrorTransition[]> {
    if (occurrences.length === 0) return Promise.resolve([]);
    return this.guarded(occurrences, async () => {
      const { counted, stored } = await this.newOccurrences(occurrences);
      const rows = occurrences.filter((o) => !stored.has(o)).map(occurrenceRow);
      if (rows.length > 0) await this.executor.insert("error_occurrences", rows);
      const byKey = new Map<string, ErrorOccurrence[]>();
      for (const o of occurrences) {
        const key = cacheKey(o.projectId, o.fingerprint);
        const list = byKey.get(key);
        if (list) list.push(o);
        else byKey.set(key, [o]);
      }
      const current = await this.load(occurrences);
      const transitions: ErrorTransition[] = [];
      const next: ErrorGroup[] = [];
      for (const [key, group] of byKey) {
        const before = current.get(key);
        const after = fold(
          before,
          group,
          group.filter((o) => counted.has(o)),
        );
        next.push(after);
        if (!before) transitions.push({ kind: "created", group: after });
        else if (before.status === "resolved" && after.status === "active")
          transitions.push({ kind: "regressed", group: after });
      }
      await this.write(next);
      return transitions;
    });
  }

  /**
   * The occurrences that are new (`counted`): without a span, every one; in a span, the first
   * source of its occurrence (occurrenceKey) in these and in what error_occurrences holds within
   * an hour of them. A stored row of the same occurrence, kind of source (exception event or
   * log) and time is this source's own earlier attempt (a retried request; a retried log gets a
   * new id): not a second source, and already `stored`.
   */
  private async newOccurrences(
    occurrences: readonly ErrorOccurrence[],
  ): Promise<{ counted: Set<ErrorOccurrence>; stored: Set<ErrorOccurrence> }> {
    const fresh = new Set<ErrorOccurrence>();
    const stored = new Set<ErrorOccurrence>();
    const keyed = new Map<string, ErrorOccurrence[]>();
    for (const o of occurrences) {
      if (occurrenceKey(o) === undefined) fresh.add(o);
      else {
        const list = keyed.get(o.projectId);
        if (list) list.push(o);
        else keyed.set(o.projectId, [o]);
      }
    }
    const table = `${quoteIdentifier(this.executor.database)}.error_occurrences`;
    for (const [projectId, list] of keyed) {
      // A loop, not Math.min(...times): a large batch would overflow the call's arguments.
      let from = Number.POSITIVE_INFINITY;
      let to = Number.NEGATIVE_INFINITY;
      for (const o of list) {
        from = Math.min(from, o.timestampMs);
        to = Math.max(to, o.timestampMs);
      }
      const rows = await this.executor.query<Record<string, string>>(
        `SELECT DISTINCT fingerprint, trace_id, span_id, message, log_id != '' AS from_log,
                toUnixTimestamp64Milli(timestamp) AS at_ms
         FROM ${table}
         WHERE project_id = {projectId:String} AND fingerprint IN {fingerprints:Array(String)}
           AND timestamp >= fromUnixTimestamp64Milli({from:Int64}, 'UTC')
           AND timestamp < fromUnixTimestamp64Milli({to:Int64}, 'UTC')
           AND trace_id IN {traces:Array(String)} AND span_id IN {spans:Array(String)}`,
        {
          params: {
            projectId,
            fingerprints: [...new Set(list.map((o) => o.fingerprint))],
            from: from - SAME_OCCURRENCE_MS,
            to: to + SAME_OCCURRENCE_MS,
            traces: [...new Set(list.map((o) => o.traceId))],
            spans: [...new Set(list.map((o) => o.spanId))],
          },
          // Ingestion waits on this read, as on the groups' own.
          writePath: true,
        },
      );
      const own = (o: ErrorOccurrence) =>
        `${occurrenceKey(o)}\u0000${o.logId !== ""}\u0000${o.timestampMs}`;
      const mine = new Map(list.map((o) => [own(o), o]));
      const seen = new Set<string | undefined>();
      for (const r of rows) {
        const key = occurrenceKey({
          fingerprint: String(r.fingerprint),
          traceId: String(r.trace_id),
          spanId: String(r.span_id),
          message: String(r.message),
        });
        const earlier = mine.get(`${key}\u0000${Number(r.from_log) === 1}\u0000${Number(r.at_ms)}`);
        if (earlier) stored.add(earlier);
        else seen.add(key);
      }
      for (const o of list) {
        const key = occurrenceKey(o);
        if (seen.has(key)) continue;
        seen.add(key);
        fresh.add(o);
      }
    }
    return { counted: fresh, stored };
  }

  /** Sets a group's status and/or severity; undefined when the group does not exist. */
  update(
    projectId: string,
    fingerprint: string,
    change: { status?: ErrorStatus; severity?: ErrorSeverity },
    nowMs: number,
  ): Promise<ErrorGroup | undefined> {
    return this.guarded([{ projectId, fingerprint }], async () => {
      const key = cacheKey(projectId, fingerprint);
      const before = (await this.load([{ projectId, fingerprint }])).get(key);
      if (!before) return undefined;
      const after: ErrorGroup = { ...before, ...change };
      if (change.status === "resolved" && before.status !== "resolved") after.resolvedAtMs = nowMs;
      await this.write([after]);
      return after;
    });
  }

  /** Current groups by cache key: from the cache, the rest in one query per project. */
  private async load(
    groups: readonly { projectId: string; fingerprint: string }[],
  ): Promise<Map<string, ErrorGroup>> {
    const found = new Map<string, ErrorGroup>();
    const missing = new Map<string, Set<string>>();
    for (const { projectId, fingerprint } of groups) {
      const key = cacheKey(projectId, fingerprint);
      const cached = this.lock.shared ? undefined : this.cache.get(key);
      if (cached) found.set(key, cached);
      else missing.set(projectId, (missing.get(projectId) ?? new Set()).add(fingerprint));
    }
    const table = `${quoteIdentifier(this.executor.database)}.error_groups`;
    for (const [projectId, fingerprints] of missing) {
      const rows = await this.executor.query<Record<string, unknown>>(
        `SELECT project_id, fingerprint, exception_type, message, stacktrace, culprit,
                toUnixTimestamp64Milli(first_seen) AS first_seen_ms,
                toUnixTimestamp64Milli(last_seen) AS last_seen_ms,
                occurrence_count, status, toUnixTimestamp64Milli(resolved_at) AS resolved_at_ms,
                severity, services, sample_trace_id, sample_span_id, source
         FROM ${table} FINAL
         WHERE project_id = {projectId:String} AND fingerprint IN {fingerprints:Array(String)}`,
        // Ingestion waits on this read: it must not queue behind long TQL queries.
        { params: { projectId, fingerprints: [...fingerprints] }, writePath: true },
      );
      for (const row of rows) {
        const group = fromRow(row);
        found.set(cacheKey(group.projectId, group.fingerprint), group);
      }
    }
    return found;
  }

  private async write(groups: readonly ErrorGroup[]): Promise<void> {
    const rows = groups.map((g) => toRow(g, this.nextVersion()));
    await this.executor.insert("error_groups", rows);
    for (const group of groups) {
      const key = cacheKey(group.projectId, group.fingerprint);
      this.cache.delete(key);
      this.cache.set(key, group);
    }
    while (this.cache.size > CACHE_LIMIT) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
  }

  /** Microseconds since the epoch, strictly increasing within this process. */
  private nextVersion(): number {
    this.lastVersion = Math.max(this.lastVersion + 1, Date.now() * 1000);
    return this.lastVersion;
  }
}

const cacheKey = (projectId: string, fingerprint: string) => `${projectId}\u0000${fingerprint}`;

/**
 * The group after these occurrences (`counted` of them new: the rest are second sources of one);
 * a resolved group with a new occurrence after its resolution is active again. A second source
 * of an occurrence already counted reopens nothing, whenever it is stamped.
 */
function fold(
  before: ErrorGroup | undefined,
  occurrences: readonly ErrorOccurrence[],
  counted: readonly ErrorOccurrence[],
): ErrorGroup {
  const sorted = [...occurrences].sort((a, b) => a.timestampMs - b.timestampMs);
  const first = sorted[0] as ErrorOccurrence;
  const latest = sorted[sorted.length - 1] as ErrorOccurrence;
  const sample = [...sorted].reverse().find((o) => o.traceId) ?? latest;
  const group: ErrorGroup = before
    ? { ...before, services: [...before.services] }
    : {
        projectId: first.projectId,
        fingerprint: first.fingerprint,
        exceptionType: first.type,
        message: first.message,
        stacktrace: first.stacktrace,
        culprit: first.culprit,
        firstSeenMs: first.timestampMs,
        lastSeenMs: first.timestampMs,
        occurrenceCount: 0,
        status: "active",
        resolvedAtMs: 0,
        severity: sorted.reduce<ErrorSeverity>(
          (max, o) => (severityRank(o.severity) > severityRank(max) ? o.severity : max),
          "low",
        ),
        services: [],
        sampleTraceId: "",
        sampleSpanId: "",
        source: first.source,
      };
  group.occurrenceCount += counted.length;
  group.firstSeenMs = Math.min(group.firstSeenMs, first.timestampMs);
  if (latest.timestampMs >= group.lastSeenMs) {
    group.lastSeenMs = latest.timestampMs;
    group.message = latest.message;
    group.stacktrace = latest.stacktrace || group.stacktrace;
    group.culprit = latest.culprit || group.culprit;
  }
  if (sample.traceId) {
    group.sampleTraceId = sample.traceId;
    group.sampleSpanId = sample.spanId;
  }
  for (const o of sorted) {
    if (o.service && !group.services.includes(o.service) && group.services.length < MAX_SERVICES)
      group.services.push(o.service);
  }
  if (group.status === "resolved" && counted.some((o) => o.timestampMs > group.resolvedAtMs))
    group.status = "active";
  return group;
}

function toRow(g: ErrorGroup, version: number): Row {
  return {
    project_id: g.projectId,
    fingerprint: g.fingerprint,
    exception_type: g.exceptionType,
    message: g.message,
    stacktrace: g.stacktrace,
    culprit: g.culprit,
    first_seen: millisToDateTime(g.firstSeenMs),
    last_seen: millisToDateTime(g.lastSeenMs),
    occurrence_count: g.occurrenceCount,
    status: g.status,
    resolved_at: millisToDateTime(g.resolvedAtMs),
    severity: g.severity,
    services: g.services,
    sample_trace_id: g.sampleTraceId,
    sample_span_id: g.sampleSpanId,
    source: g.source,
    version,
  };
}

function fromRow(row: Record<string, unknown>): ErrorGroup {
  return {
    projectId: String(row.project_id),
    fingerprint: String(row.fingerprint),
    exceptionType: String(row.exception_type),
    message: String(row.message),
    stacktrace: String(row.stacktrace),
    culprit: String(row.culprit),
    firstSeenMs: Number(row.first_seen_ms),
    lastSeenMs: Number(row.last_seen_ms),
    occurrenceCount: Number(row.occurrence_count),
    status: row.status === "resolved" ? "resolved" : "active",
    resolvedAtMs: Number(row.resolved_at_ms),
    severity: (ERROR_SEVERITIES as readonly string[]).includes(String(row.severity))
      ? (row.severity as ErrorSeverity)
      : "medium",
    services: Array.isArray(row.services) ? row.services.map(String) : [],
    sampleTraceId: String(row.sample_trace_id),
    sampleSpanId: String(row.sample_span_id),
    source: row.source === "frontend" ? "frontend" : "backend",
  };
}
