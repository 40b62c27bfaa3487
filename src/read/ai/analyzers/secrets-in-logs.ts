import { isoMs } from "../../../lib/list-params.js";
import { num, whereClause } from "../../sql.js";
import { type Analyzer, recommend } from "../recommendation.js";
import {
  ANY_SECRET_SQL_PATTERN,
  maskedExcerpt,
  SECRET_KINDS,
  secretKindsIn,
  secretSqlPattern,
} from "../secrets.js";

/** Limits of the leaked-secret analyzer (documented in docs/read-api.md). */
export const SECRET_IN_LOGS = {
  /** Newest matching records read for samples; counts cover every record. */
  scanRecords: 200,
  samples: 5,
  excerpts: 3,
} as const;

/**
 * Secrets and tokens in log records: the message and every attribute as `key=value`. One
 * finding per kind of secret, at the kind's severity, from a single record on. Evidence names
 * log ids and masked excerpts; the secret itself never leaves this function.
 */
export const secretsInLogs: Analyzer = {
  id: "security.secret-in-logs",
  context: "security",
  async analyze(ctx) {
    const sql = ctx.sql();
    const text = `concat(message, '\\n', arrayStringConcat(arrayMap((k, v) -> concat(k, '=', v),
      mapKeys(attributes), mapValues(attributes)), '\\n'))`;
    const where = whereClause(sql, [
      ...sql.within("timestamp", ctx.window),
      `match(${text}, ${sql.bind(ANY_SECRET_SQL_PATTERN)})`,
    ]);
    const table = sql.table("logs");
    const flags = SECRET_KINDS.map(
      (kind, i) => `match(text, ${sql.bind(secretSqlPattern(kind))}) AS m${i}`,
    );
    const perKind = SECRET_KINDS.map(
      (_, i) => `countIf(m${i}) AS c${i}, arraySort(groupUniqArrayIf(service_name, m${i})) AS s${i},
        toUnixTimestamp64Milli(minIf(timestamp, m${i})) AS f${i}, toUnixTimestamp64Milli(maxIf(timestamp, m${i})) AS l${i}`,
    );
    const [counts, records] = await Promise.all([
      sql.query<Record<string, unknown>>(
        `SELECT ${perKind.join(",\n")}
         FROM (SELECT service_name, timestamp, ${text} AS text, ${flags.join(", ")} FROM ${table} ${where})`,
      ),
      sql.query<{ id: string; trace_id: string; text: string }>(
        `SELECT id, trace_id, ${text} AS text FROM ${table} ${where}
         ORDER BY timestamp DESC, id DESC LIMIT ${SECRET_IN_LOGS.scanRecords}`,
      ),
    ]);
    const totals = counts[0] ?? {};
    // Each sampled record once per kind it holds, newest first.
    const byKind = new Map<string, typeof records>();
    for (const record of records) {
      for (const kind of secretKindsIn(record.text)) {
        byKind.set(kind, [...(byKind.get(kind) ?? []), record]);
      }
    }
    return SECRET_KINDS.flatMap((kind, i) => {
      const count = num(totals[`c${i}`]);
      if (count === 0) return [];
      const sampled = byKind.get(kind.kind) ?? [];
      const services = ((totals[`s${i}`] as unknown[] | undefined) ?? []).map(String);
      return [
        recommend(secretsInLogs, kind.kind, {
          severity: kind.severity,
          title: `${kind.name} found in ${count} log record${count === 1 ? "" : "s"}`,
          action:
            "Rotate the exposed credential now, then stop logging it: redact these fields in the " +
            "logger (or a collector processor) and delete the affected records if your retention " +
            "policy allows.",
          evidence: {
            metrics: { records: count },
            labels: {
              kind: kind.kind,
              services: services.join(", "),
              firstSeen: isoMs(num(totals[`f${i}`])),
              lastSeen: isoMs(num(totals[`l${i}`])),
            },
            excerpts: sampled.slice(0, SECRET_IN_LOGS.excerpts).map((r) => maskedExcerpt(r.text)),
            logIds: sampled.slice(0, SECRET_IN_LOGS.samples).map((r) => r.id),
            traceIds: [...new Set(sampled.map((r) => r.trace_id).filter(Boolean))].slice(
              0,
              SECRET_IN_LOGS.samples,
            ),
          },
        }),
      ];
    });
  },
};
