import { num, whereClause } from "../../sql.js";
import { type Analyzer, recommend, severityAt } from "../recommendation.js";
import { maskSecrets } from "../secrets.js";
import { ms, stableKey } from "../stats.js";

/** Thresholds of the N+1 analyzer (documented in docs/read-api.md). */
export const N_PLUS_ONE = {
  /** The same statement this many times under one parent span in one trace is an N+1. */
  minRepeats: 5,
  /** Affected traces from which a pattern is medium / high. */
  mediumTraces: 5,
  highTraces: 20,
  /** Repeats in one trace from which a pattern is high whatever its spread. */
  highRepeats: 50,
  maxFindings: 5,
  samples: 3,
} as const;

/**
 * Literal strings and numbers, replaced by `?` so `id = 17` and `id = 18` are one statement;
 * the character before a number is kept (group 1), and `$1`-style placeholders are left alone.
 */
const LITERALS = "'(?:[^']|'')*'|(^|[^$\\w])\\d+(?:\\.\\d+)?\\b";

/**
 * The statement of a database span: its query text (current or legacy attribute), else its
 * operation and collection, else the span name; at most 1000 characters, literals normalized.
 */
const statementSql = (literals: string) => `replaceRegexpAll(left(multiIf(
    attributes['db.query.text'] != '', attributes['db.query.text'],
    attributes['db.statement'] != '', attributes['db.statement'],
    attributes['db.query.summary'] != '', attributes['db.query.summary'],
    attributes['db.operation.name'] != '',
      concat(attributes['db.operation.name'], ' ', attributes['db.collection.name']),
    operation_name), 1000), ${literals}, '\\\\1?')`;

/**
 * N+1 query patterns: database spans (with `db.system.name` or legacy `db.system`) repeating
 * the same normalized statement at least `minRepeats` times under one parent span in one trace.
 */
export const nPlusOne: Analyzer = {
  id: "performance.n-plus-one",
  context: "performance",
  async analyze(ctx) {
    const sql = ctx.sql();
    const where = whereClause(sql, [
      ...sql.within("timestamp", ctx.window),
      "parent_span_id != ''",
      "(attributes['db.system.name'] != '' OR attributes['db.system'] != '')",
    ]);
    const rows = await sql.query<Record<string, unknown>>(
      `SELECT service_name, statement, count() AS traces, max(repeats) AS max_repeats,
              sum(repeats) AS total_repeats, sum(db_ms) AS db_ms,
              arraySlice(arrayMap(x -> x.2, arraySort(x -> (-x.1, x.2),
                groupArray((repeats, trace_id)))), 1, ${N_PLUS_ONE.samples}) AS samples
       FROM (
         SELECT service_name, trace_id, parent_span_id, ${statementSql(sql.bind(LITERALS))} AS statement,
                count() AS repeats, sum(duration_ms) AS db_ms
         FROM ${sql.table("traces")} ${where}
         GROUP BY service_name, trace_id, parent_span_id, statement
         HAVING repeats >= ${sql.bind(N_PLUS_ONE.minRepeats)}
       )
       GROUP BY service_name, statement
       ORDER BY traces DESC, max_repeats DESC, service_name, statement
       LIMIT ${N_PLUS_ONE.maxFindings}`,
    );
    return rows.map((row) => {
      const service = String(row.service_name);
      // Literals are already gone; masking catches a secret spelled into the statement some other way.
      const statement = maskSecrets(String(row.statement));
      const traces = num(row.traces);
      const maxRepeats = num(row.max_repeats);
      const totalRepeats = num(row.total_repeats);
      return recommend(nPlusOne, `${service}:${stableKey(statement)}`, {
        severity:
          maxRepeats >= N_PLUS_ONE.highRepeats
            ? "high"
            : severityAt(
                traces,
                [
                  [N_PLUS_ONE.highTraces, "high"],
                  [N_PLUS_ONE.mediumTraces, "medium"],
                ],
                "low",
              ),
        title: `N+1 queries in ${service}: the same statement runs up to ${maxRepeats} times per request in ${traces} trace${traces === 1 ? "" : "s"}`,
        action:
          "Load the rows in one query (a join, `WHERE id IN (…)`, or the ORM's eager loading / " +
          "a DataLoader) instead of one query per item.",
        evidence: {
          metrics: {
            traces,
            maxRepeats,
            avgRepeats: Math.round((totalRepeats / traces) * 100) / 100,
            totalQueries: totalRepeats,
            totalDbTimeMs: ms(num(row.db_ms)),
          },
          labels: { service },
          excerpts: [statement.slice(0, 500)],
          traceIds: (row.samples as unknown[]).map(String),
        },
      });
    });
  },
};
