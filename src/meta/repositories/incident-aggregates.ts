import { type Kysely, sql } from "kysely";
import type { IncidentSource } from "../../contracts/incident-catalog.js";
import type { Severity as IncidentSeverity } from "../../contracts/severity.js";
import type { IncidentRow, MetaSchema } from "../schema.js";

/** What these reads need of an incident record (incidents.ts's IncidentRecord). */
interface ListedIncident {
  id: string;
  status: string;
  startedAt: string;
}

// The incidents repository's reads over many incidents: a dashboard's aggregates and a status
// page's incidents (createIncidentRepository spreads them in).

/** How much of an ISO timestamp a dashboard groups by: to the minute, the hour or the day. */
export type TimeTruncation = "minute" | "hour" | "day";
const TRUNCATED_LENGTH: Record<TimeTruncation, number> = { minute: 16, hour: 13, day: 10 };

/** The dashboard's aggregates over [from, to), grouped by the truncated time. */
export interface IncidentAggregates {
  /** Started in the window, per (truncated start, severity, source). */
  opened: { time: string; severity: IncidentSeverity; source: IncidentSource; count: number }[];
  /** Resolved in the window, per truncated resolve time. */
  resolved: { time: string; count: number }[];
  /** Mean duration of the incidents resolved in the window; null if none. */
  meanDurationMs: number | null;
  /** Active now, whenever started. */
  open: number;
}

export function createIncidentAggregates<IncidentRecord extends ListedIncident>(
  db: Kysely<MetaSchema>,
  toRecord: (row: IncidentRow) => IncidentRecord,
) {
  return {
    /**
     * Counts for a dashboard, aggregated in SQL. Timestamps are canonical ISO text on both
     * engines, so a prefix of it (substr) is the same time truncation on SQLite and PostgreSQL.
     */
    async aggregate(
      projectId: string,
      window: { from: string; to: string; truncate: TimeTruncation },
    ): Promise<IncidentAggregates> {
      const { from, to } = window;
      const length = TRUNCATED_LENGTH[window.truncate];
      const scoped = db.selectFrom("incidents").where("project_id", "=", projectId);
      const resolvedIn = scoped
        .where("status", "=", "resolved")
        .where("resolved_at", ">=", from)
        .where("resolved_at", "<", to);
      const [opened, resolved, mean, open] = await Promise.all([
        scoped
          .where("started_at", ">=", from)
          .where("started_at", "<", to)
          .select((eb) => [
            sql<string>`substr(started_at, 1, ${sql.lit(length)})`.as("time"),
            "severity",
            "source",
            eb.fn.countAll<number | string>().as("n"),
          ])
          .groupBy([sql`substr(started_at, 1, ${sql.lit(length)})`, "severity", "source"])
          .execute(),
        resolvedIn
          .select((eb) => [
            sql<string>`substr(resolved_at, 1, ${sql.lit(length)})`.as("time"),
            eb.fn.countAll<number | string>().as("n"),
          ])
          .groupBy(sql`substr(resolved_at, 1, ${sql.lit(length)})`)
          .execute(),
        resolvedIn
          .select((eb) => eb.fn.avg<number | string | null>("duration_ms").as("mean"))
          .executeTakeFirstOrThrow(),
        scoped
          .where("status", "=", "active")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .executeTakeFirstOrThrow(),
      ]);
      return {
        opened: opened.map((r) => ({
          time: r.time,
          severity: r.severity as IncidentSeverity,
          source: r.source as IncidentSource,
          count: Number(r.n),
        })),
        resolved: resolved.map((r) => ({ time: r.time, count: Number(r.n) })),
        // PostgreSQL's avg of a bigint is numeric, read as a string.
        meanDurationMs: mean.mean === null ? null : Math.round(Number(mean.mean)),
        open: Number(open.n),
      };
    },
    /**
     * A status page's incidents: those of these monitors and rules, and those linked by hand to
     * these components, open now or resolved since `since`; every open one and the newest
     * `resolvedLimit` resolved ones, newest first. Three indexed reads (an OR over them would
     * scan on PostgreSQL).
     */
    async listForPage(
      page: {
        monitorIds: readonly string[];
        ruleIds: readonly string[];
        componentIds: readonly string[];
      },
      since: string,
      resolvedLimit: number,
    ): Promise<IncidentRecord[]> {
      const recent = (query: ReturnType<typeof base>) =>
        query.where((eb) => eb.or([eb("status", "=", "active"), eb("resolved_at", ">=", since)]));
      const base = () => db.selectFrom("incidents").selectAll();
      const reads = [];
      if (page.monitorIds.length > 0)
        reads.push(
          recent(base().where("source", "=", "monitor").where("source_id", "in", page.monitorIds)),
        );
      if (page.ruleIds.length > 0)
        reads.push(
          recent(base().where("source", "=", "alert").where("source_id", "in", page.ruleIds)),
        );
      if (page.componentIds.length > 0)
        reads.push(
          recent(
            base().where(
              "id",
              "in",
              db
                .selectFrom("status_page_incident_components")
                .select("incident_id")
                .where("component_id", "in", page.componentIds),
            ),
          ),
        );
      const byId = new Map<string, IncidentRecord>();
      for (const rows of await Promise.all(reads.map((q) => q.execute())))
        for (const row of rows) byId.set(row.id, toRecord(row));
      const newestFirst = [...byId.values()].sort(
        (a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id),
      );
      const active = newestFirst.filter((i) => i.status === "active");
      const resolved = newestFirst.filter((i) => i.status !== "active").slice(0, resolvedLimit);
      const kept = new Set([...active, ...resolved]);
      return newestFirst.filter((i) => kept.has(i));
    },
  };
}
