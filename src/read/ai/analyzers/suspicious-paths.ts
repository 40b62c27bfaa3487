import { num, whereClause } from "../../sql.js";
import { clientAddressSql } from "../endpoints.js";
import { type Analyzer, recommend, severityAt } from "../recommendation.js";
import { maskSecrets } from "../secrets.js";
import { SUSPICIOUS_PATH_KINDS, SUSPICIOUS_PATH_SQL_PATTERN } from "../suspicious-paths.js";

/** Thresholds of the suspicious-path analyzer (documented in docs/read-api.md). */
export const SUSPICIOUS_PATH = {
  /** Requests of one kind from which the finding is low / medium (below: info). */
  lowRequests: 10,
  mediumRequests: 100,
  top: 5,
  samples: 3,
} as const;

/**
 * Requests probing for secrets and admin tools (`/.env`, `/.git`, `/wp-admin`, `../`,
 * `/etc/passwd`…), one finding per kind. Any 2xx answer raises it to high, or critical for kinds
 * that expose secrets, since the probe may have succeeded.
 */
export const suspiciousPaths: Analyzer = {
  id: "security.suspicious-path",
  context: "security",
  async analyze(ctx) {
    const sql = ctx.sql();
    // The path with its query, decoded twice and lower-cased, as classifyPath() sees it.
    const path = `concat(if(http_target != '', http_target, http_route),
      if(attributes['url.query'] != '', concat('?', attributes['url.query']), ''))`;
    const normalized = `lower(decodeURLComponent(decodeURLComponent(${path})))`;
    const kindSql = `multiIf(${SUSPICIOUS_PATH_KINDS.map(
      (k) => `match(normalized, ${sql.bind(`(?:${k.pattern})`)}), ${sql.bind(k.kind)}`,
    ).join(", ")}, '')`;
    const inner = `SELECT trace_id, timestamp, http_status_code, ${path} AS path,
        ${clientAddressSql(sql)} AS client, ${normalized} AS normalized, ${kindSql} AS kind
      FROM ${sql.table("traces")}
      ${whereClause(sql, [
        ...sql.within("timestamp", ctx.window),
        "(http_target != '' OR http_route != '')",
        `match(${normalized}, ${sql.bind(SUSPICIOUS_PATH_SQL_PATTERN)})`,
      ])}`;
    const top = SUSPICIOUS_PATH.top;
    const [kinds, paths, clients] = await Promise.all([
      sql.query<Record<string, unknown>>(
        `SELECT kind, uniqExact(trace_id) AS requests,
                uniqExactIf(trace_id, http_status_code BETWEEN 200 AND 299) AS succeeded,
                uniqExact(path) AS distinct_paths,
                arraySlice(arrayDistinct(arrayMap(x -> x.2, arraySort(x -> (-x.1, x.2),
                  groupUniqArray((toUnixTimestamp64Milli(timestamp), trace_id))))), 1, ${SUSPICIOUS_PATH.samples}) AS samples
         FROM (${inner}) GROUP BY kind`,
      ),
      sql.query<{ kind: string; value: string; n: unknown }>(
        `SELECT kind, path AS value, uniqExact(trace_id) AS n FROM (${inner})
         GROUP BY kind, value ORDER BY n DESC, value LIMIT ${top} BY kind`,
      ),
      sql.query<{ kind: string; value: string; n: unknown }>(
        `SELECT kind, client AS value, uniqExact(trace_id) AS n FROM (${inner}) WHERE client != ''
         GROUP BY kind, value ORDER BY n DESC, value LIMIT ${top} BY kind`,
      ),
    ]);
    const found = new Map(kinds.map((k) => [String(k.kind), k]));
    return SUSPICIOUS_PATH_KINDS.flatMap((kind) => {
      const row = found.get(kind.kind);
      if (!row) return [];
      const requests = num(row.requests);
      const succeeded = num(row.succeeded);
      const entries = (dimension: string, list: typeof paths) =>
        list
          .filter((r) => r.kind === kind.kind)
          .map((r) => ({ dimension, value: maskSecrets(r.value), count: num(r.n) }));
      return [
        recommend(suspiciousPaths, kind.kind, {
          severity:
            succeeded > 0
              ? kind.exposesSecrets
                ? "critical"
                : "high"
              : severityAt(
                  requests,
                  [
                    [SUSPICIOUS_PATH.mediumRequests, "medium"],
                    [SUSPICIOUS_PATH.lowRequests, "low"],
                  ],
                  "info",
                ),
          title: `${kind.name}: ${requests} request${requests === 1 ? "" : "s"}${succeeded > 0 ? `, ${succeeded} answered 2xx` : ""}`,
          action:
            succeeded > 0
              ? "Some probes got a 2xx answer: check what these paths served, block them at the " +
                "edge, and rotate any secret the response may have exposed."
              : "Scanners are probing for well-known files and admin tools. Make sure these paths " +
                "answer 404, block them at the edge or WAF, and rate-limit the clients below.",
          evidence: {
            metrics: { requests, succeeded, distinctPaths: num(row.distinct_paths) },
            labels: { kind: kind.kind },
            breakdown: [...entries("path", paths), ...entries("client_address", clients)],
            traceIds: (row.samples as unknown[]).map(String),
          },
        }),
      ];
    });
  },
};
