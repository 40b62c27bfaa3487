/**
 * The TQL conformance corpus: queries over the fixed dataset (dataset.ts), each with a
 * hand-written ClickHouse reference query that reads the raw tables with an explicit
 * `project_id = 'proj_main'` filter (and FINAL for error_groups). The reference is the oracle:
 * `scripts/tql-corpus-expect.ts` runs it on the engine and writes corpus-expected.json, and
 * test/tql-conformance.int.test.ts checks that TQL returns the same columns and rows.
 */
import type { ResultColumn } from "../../src/telemetry/executor.js";
import { spanId, traceId } from "./dataset.js";

export interface CorpusEntry {
  id: string;
  tql: string;
  /** Equivalent ClickHouse SQL on the raw tables, confined to proj_main by hand. */
  reference: string;
  /** Hand-computed expectation, checked against the reference too. */
  expect?: { columns?: ResultColumn[]; rows: unknown[][] };
  /** The query orders its result completely: compare rows in order. */
  ordered?: boolean;
  /** Why the entry does not run (a TQL bug or gap, see the conformance test). */
  skip?: string;
  /** Expected `truncated` flag; false when absent. */
  truncated?: boolean;
  /**
   * "rowCount": the result is too large (or its rows arbitrary) to list; the reference returns
   * one row holding the number of rows the query yields without the row cap, and the test
   * checks rowCount = min(that, 10000) and truncated = that > 10000.
   */
  check?: "rowCount";
}

/** A table of proj_main as a subquery, for references that join or nest. */
const main = (table: string) =>
  `(SELECT * EXCEPT (project_id) FROM vigil.${table}${table === "error_groups" ? " FINAL" : ""} WHERE project_id = 'proj_main')`;
const P = "project_id = 'proj_main'";

const T1 = traceId(1);
const T2 = traceId(2);
const T4 = traceId(4);
const T5 = traceId(5);
const S1 = spanId(1);
const S5 = spanId(5);

export const CORPUS: readonly CorpusEntry[] = [
  // ------------------------------------------------------------------ counts on every table
  {
    id: "count-traces",
    tql: "SELECT count() FROM traces",
    reference: `SELECT count() FROM vigil.traces WHERE ${P}`,
    expect: { columns: [{ name: "count()", type: "UInt64" }], rows: [[48]] },
  },
  {
    id: "count-logs",
    tql: "SELECT count() AS n FROM logs",
    reference: `SELECT count() AS n FROM vigil.logs WHERE ${P}`,
    expect: { rows: [[42]] },
  },
  {
    id: "count-metrics",
    tql: "SELECT count() AS n FROM metrics",
    reference: `SELECT count() AS n FROM vigil.metrics WHERE ${P}`,
    expect: { rows: [[20]] },
  },
  {
    id: "count-ai-spans",
    tql: "SELECT count() AS n FROM ai_spans",
    reference: `SELECT count() AS n FROM vigil.ai_spans WHERE ${P}`,
    expect: { rows: [[14]] },
  },
  {
    id: "count-http-requests",
    tql: "SELECT count() AS n FROM http_requests",
    reference: `SELECT count() AS n FROM vigil.http_requests WHERE ${P}`,
    expect: { rows: [[16]] },
  },
  {
    id: "count-error-groups-final",
    tql: "SELECT count() AS n FROM error_groups",
    reference: `SELECT count() AS n FROM vigil.error_groups FINAL WHERE ${P}`,
    expect: { rows: [[7]] },
  },
  {
    id: "count-star",
    tql: "SELECT count(*) AS n FROM traces WHERE status = 'error'",
    reference: `SELECT count(*) AS n FROM vigil.traces WHERE ${P} AND status = 'error'`,
    expect: { rows: [[9]] },
  },
  {
    id: "count-column-non-null",
    tql: "SELECT count(nullIf(user_id, '')) AS with_user, count(user_id) AS all_rows FROM traces",
    reference: `SELECT count(nullIf(user_id, '')) AS with_user, count(user_id) AS all_rows FROM vigil.traces WHERE ${P}`,
  },

  // ------------------------------------------------------------------ SELECT * and t.*
  {
    id: "star-error-groups",
    tql: "SELECT * FROM error_groups",
    reference: `SELECT * EXCEPT (project_id) FROM vigil.error_groups FINAL WHERE ${P}`,
  },
  {
    id: "star-http-requests-ordered",
    tql: "SELECT * FROM http_requests ORDER BY timestamp, service_name, route, method, status_code, request_count",
    reference: `SELECT * EXCEPT (project_id) FROM vigil.http_requests WHERE ${P} ORDER BY timestamp, service_name, route, method, status_code, request_count`,
    ordered: true,
  },
  {
    id: "star-traces-first-five",
    tql: "SELECT * FROM traces ORDER BY timestamp LIMIT 5",
    reference: `SELECT * EXCEPT (project_id) FROM vigil.traces WHERE ${P} ORDER BY timestamp LIMIT 5`,
    ordered: true,
  },
  {
    id: "star-logs-fatal",
    tql: "SELECT * FROM logs WHERE level = 'fatal'",
    reference: `SELECT * EXCEPT (project_id) FROM vigil.logs WHERE ${P} AND level = 'fatal'`,
  },
  {
    id: "star-metrics-distributions",
    tql: "SELECT * FROM metrics WHERE metric_type IN ('histogram', 'summary', 'exponential_histogram')",
    reference: `SELECT * EXCEPT (project_id) FROM vigil.metrics WHERE ${P} AND metric_type IN ('histogram', 'summary', 'exponential_histogram')`,
  },
  {
    id: "star-ai-spans-errors",
    tql: "SELECT * FROM ai_spans WHERE status = 'error'",
    reference: `SELECT * EXCEPT (project_id) FROM vigil.ai_spans WHERE ${P} AND status = 'error'`,
  },
  {
    id: "table-star-with-join",
    tql: "SELECT e.*, t.operation_name FROM error_groups AS e INNER JOIN traces AS t ON e.sample_span_id = t.span_id",
    reference: `SELECT e.*, t.operation_name FROM ${main("error_groups")} AS e INNER JOIN ${main("traces")} AS t ON e.sample_span_id = t.span_id`,
  },
  {
    id: "star-from-subquery",
    tql: "SELECT * FROM (SELECT service_name, count() AS n FROM logs GROUP BY service_name) ORDER BY service_name",
    reference: `SELECT * FROM (SELECT service_name, count() AS n FROM vigil.logs WHERE ${P} GROUP BY service_name) ORDER BY service_name`,
    ordered: true,
  },
  {
    id: "limit-zero",
    tql: "SELECT * FROM traces LIMIT 0",
    reference: `SELECT * EXCEPT (project_id) FROM vigil.traces WHERE ${P} LIMIT 0`,
  },

  // ------------------------------------------------------------------ WHERE, operators
  {
    id: "where-string-equals",
    tql: "SELECT span_id, operation_name FROM traces WHERE service_name = 'payments'",
    reference: `SELECT span_id, operation_name FROM vigil.traces WHERE ${P} AND service_name = 'payments'`,
  },
  {
    id: "where-not-equals-both-spellings",
    tql: "SELECT countIf(status != 'ok') AS a, countIf(status <> 'ok') AS b, countIf(http_status_code == 200) AS c FROM traces",
    reference: `SELECT countIf(status != 'ok') AS a, countIf(status <> 'ok') AS b, countIf(http_status_code == 200) AS c FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "where-range",
    tql: "SELECT span_id, duration_ms FROM traces WHERE duration_ms >= 500 AND duration_ms < 2000",
    reference: `SELECT span_id, duration_ms FROM vigil.traces WHERE ${P} AND duration_ms >= 500 AND duration_ms < 2000`,
  },
  {
    id: "where-and-binds-tighter-than-or",
    tql: "SELECT span_id FROM traces WHERE service_name = 'checkout' OR service_name = 'payments' AND status = 'error'",
    reference: `SELECT span_id FROM vigil.traces WHERE ${P} AND (service_name = 'checkout' OR service_name = 'payments' AND status = 'error')`,
  },
  {
    id: "where-not-parenthesized",
    tql: "SELECT count() AS n FROM traces WHERE NOT (status = 'ok' OR status = 'unset')",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND NOT (status = 'ok' OR status = 'unset')`,
    expect: { rows: [[9]] },
  },
  {
    id: "where-not-binds-looser-than-comparison",
    tql: "SELECT count() AS n FROM logs WHERE NOT level = 'info' AND NOT level = 'debug'",
    reference: `SELECT count() AS n FROM vigil.logs WHERE ${P} AND (NOT level = 'info' AND NOT level = 'debug')`,
    expect: { rows: [[14]] },
  },
  {
    id: "arithmetic-on-columns",
    tql: `SELECT span_id, duration_ms * 2 + 1 AS a, duration_ns / 1000000 AS b, duration_ns % 7 AS c, -duration_ms AS d FROM traces WHERE trace_id = '${T1}'`,
    reference: `SELECT span_id, duration_ms * 2 + 1 AS a, duration_ns / 1000000 AS b, duration_ns % 7 AS c, -duration_ms AS d FROM vigil.traces WHERE ${P} AND trace_id = '${T1}'`,
  },
  {
    id: "arithmetic-precedence",
    tql: "SELECT 2 + 3 * 4 AS a, (2 + 3) * 4 AS b, 10 - 4 - 3 AS c, 2 * 3 % 4 AS d, 7 / 2 AS e, intDiv(7, 2) AS f, -2 * -3 AS g, 3 - -2 AS h",
    reference:
      "SELECT 2 + 3 * 4 AS a, (2 + 3) * 4 AS b, 10 - 4 - 3 AS c, 2 * 3 % 4 AS d, 7 / 2 AS e, intDiv(7, 2) AS f, -2 * -3 AS g, 3 - -2 AS h",
    expect: { rows: [[14, 20, 3, 2, 3.5, 3, 6, 5]] },
  },
  {
    id: "comparison-operators",
    tql: "SELECT 1 = 1 AS a, 1 == 2 AS b, 1 != 2 AS c, 1 <> 1 AS d, 2 > 1 AS e, 2 >= 2 AS f, 1 < 0 AS g, 1 <= 1 AS h",
    reference:
      "SELECT 1 = 1 AS a, 1 == 2 AS b, 1 != 2 AS c, 1 <> 1 AS d, 2 > 1 AS e, 2 >= 2 AS f, 1 < 0 AS g, 1 <= 1 AS h",
    expect: { rows: [[1, 0, 1, 0, 1, 1, 0, 1]] },
  },
  {
    id: "comparison-chain-with-arithmetic",
    tql: "SELECT span_id FROM traces WHERE duration_ms * 1000000 = duration_ns AND duration_ms + 1 > 1000 + 1",
    reference: `SELECT span_id FROM vigil.traces WHERE ${P} AND duration_ms * 1000000 = duration_ns AND duration_ms + 1 > 1000 + 1`,
  },
  {
    id: "in-number-list",
    tql: "SELECT span_id, http_status_code FROM traces WHERE http_status_code IN (404, 409, 503)",
    reference: `SELECT span_id, http_status_code FROM vigil.traces WHERE ${P} AND http_status_code IN (404, 409, 503)`,
  },
  {
    id: "not-in-string-list",
    tql: "SELECT DISTINCT service_name FROM traces WHERE service_name NOT IN ('api-gateway', 'checkout')",
    reference: `SELECT DISTINCT service_name FROM vigil.traces WHERE ${P} AND service_name NOT IN ('api-gateway', 'checkout')`,
  },
  {
    id: "in-bracket-list",
    tql: "SELECT count() AS n FROM logs WHERE level IN ['error', 'fatal']",
    reference: `SELECT count() AS n FROM vigil.logs WHERE ${P} AND level IN ('error', 'fatal')`,
    expect: { rows: [[7]] },
  },
  {
    id: "in-single-item-list",
    tql: "SELECT count() AS n FROM logs WHERE level IN ('fatal')",
    reference: `SELECT count() AS n FROM vigil.logs WHERE ${P} AND level IN ('fatal')`,
    expect: { rows: [[2]] },
  },
  {
    id: "in-subquery",
    tql: "SELECT span_id, operation_name FROM traces WHERE trace_id IN (SELECT trace_id FROM logs WHERE level = 'error')",
    reference: `SELECT span_id, operation_name FROM vigil.traces WHERE ${P} AND trace_id IN (SELECT trace_id FROM vigil.logs WHERE ${P} AND level = 'error')`,
  },
  {
    id: "not-in-subquery",
    tql: "SELECT operation_name FROM traces WHERE span_id NOT IN (SELECT span_id FROM logs)",
    reference: `SELECT operation_name FROM vigil.traces WHERE ${P} AND span_id NOT IN (SELECT span_id FROM vigil.logs WHERE ${P})`,
  },
  {
    id: "in-subquery-sees-only-own-project",
    tql: "SELECT count() AS n FROM traces WHERE trace_id IN (SELECT trace_id FROM logs WHERE message LIKE '%secret%')",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND trace_id IN (SELECT trace_id FROM vigil.logs WHERE ${P} AND message LIKE '%secret%')`,
    expect: { rows: [[0]] },
  },
  {
    id: "in-tuple-list",
    tql: "SELECT span_id FROM traces WHERE (service_name, status) IN (('payments', 'error'), ('inventory', 'error'))",
    reference: `SELECT span_id FROM vigil.traces WHERE ${P} AND (service_name, status) IN (('payments', 'error'), ('inventory', 'error'))`,
  },
  {
    id: "in-tuple-subquery",
    tql: "SELECT operation_name FROM traces WHERE (trace_id, span_id) IN (SELECT trace_id, span_id FROM logs WHERE level = 'error')",
    reference: `SELECT operation_name FROM vigil.traces WHERE ${P} AND (trace_id, span_id) IN (SELECT trace_id, span_id FROM vigil.logs WHERE ${P} AND level = 'error')`,
  },
  {
    id: "between",
    tql: "SELECT span_id, duration_ms FROM traces WHERE duration_ms BETWEEN 100 AND 300",
    reference: `SELECT span_id, duration_ms FROM vigil.traces WHERE ${P} AND duration_ms BETWEEN 100 AND 300`,
  },
  {
    id: "not-between",
    tql: "SELECT count() AS n FROM traces WHERE duration_ms NOT BETWEEN 1 AND 1000",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND duration_ms NOT BETWEEN 1 AND 1000`,
  },
  {
    id: "between-date-strings",
    tql: "SELECT count() AS n FROM logs WHERE timestamp BETWEEN '2026-03-02 00:00:00' AND '2026-03-02 23:59:59'",
    reference: `SELECT count() AS n FROM vigil.logs WHERE ${P} AND timestamp BETWEEN '2026-03-02 00:00:00' AND '2026-03-02 23:59:59'`,
    expect: { rows: [[11]] },
  },
  {
    id: "between-and-in-one-where",
    tql: "SELECT span_id FROM traces WHERE duration_ms BETWEEN 10 AND 50 AND service_name = 'checkout'",
    reference: `SELECT span_id FROM vigil.traces WHERE ${P} AND (duration_ms BETWEEN 10 AND 50) AND service_name = 'checkout'`,
  },
  {
    id: "like-prefix",
    tql: "SELECT message FROM logs WHERE message LIKE 'GET %'",
    reference: `SELECT message FROM vigil.logs WHERE ${P} AND message LIKE 'GET %'`,
  },
  {
    id: "like-underscore",
    tql: "SELECT DISTINCT user_id FROM traces WHERE user_id LIKE 'user-_'",
    reference: `SELECT DISTINCT user_id FROM vigil.traces WHERE ${P} AND user_id LIKE 'user-_'`,
  },
  {
    id: "ilike",
    tql: "SELECT DISTINCT message FROM logs WHERE message ILIKE '%CACHE%'",
    reference: `SELECT DISTINCT message FROM vigil.logs WHERE ${P} AND message ILIKE '%CACHE%'`,
  },
  {
    id: "not-like",
    tql: "SELECT count() AS n FROM logs WHERE message NOT LIKE '%e%'",
    reference: `SELECT count() AS n FROM vigil.logs WHERE ${P} AND message NOT LIKE '%e%'`,
  },
  {
    id: "not-ilike",
    tql: "SELECT message FROM logs WHERE message NOT ILIKE '%e%'",
    reference: `SELECT message FROM vigil.logs WHERE ${P} AND message NOT ILIKE '%e%'`,
  },
  {
    id: "like-escaped-percent",
    tql: String.raw`SELECT message FROM logs WHERE message LIKE '%50\%%'`,
    reference: String.raw`SELECT message FROM vigil.logs WHERE ${P} AND message LIKE '%50\%%'`,
  },
  {
    id: "is-null",
    tql: "SELECT count() AS n FROM traces WHERE nullIf(http_route, '') IS NULL",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND nullIf(http_route, '') IS NULL`,
  },
  {
    id: "is-not-null",
    tql: "SELECT span_id, nullIf(status_message, '') AS msg FROM traces WHERE nullIf(status_message, '') IS NOT NULL",
    reference: `SELECT span_id, nullIf(status_message, '') AS msg FROM vigil.traces WHERE ${P} AND nullIf(status_message, '') IS NOT NULL`,
  },
  {
    id: "null-literal",
    tql: "SELECT NULL AS a, NULL IS NULL AS b, 1 + NULL AS c, coalesce(NULL, 'x') AS d, isNull(NULL) AS e",
    reference:
      "SELECT NULL AS a, NULL IS NULL AS b, 1 + NULL AS c, coalesce(NULL, 'x') AS d, isNull(NULL) AS e",
  },
  {
    id: "bool-literals",
    tql: "SELECT true AS t, false AS f, true AND false AS a, NOT false AS n, TRUE OR FALSE AS o",
    reference:
      "SELECT true AS t, false AS f, true AND false AS a, NOT false AS n, TRUE OR FALSE AS o",
  },
  {
    id: "bool-column",
    tql: "SELECT metric_name, is_monotonic, count() AS n FROM metrics WHERE is_monotonic = true OR metric_type = 'sum' GROUP BY metric_name, is_monotonic",
    reference: `SELECT metric_name, is_monotonic, count() AS n FROM vigil.metrics WHERE ${P} AND (is_monotonic = true OR metric_type = 'sum') GROUP BY metric_name, is_monotonic`,
  },
  {
    id: "bool-column-not",
    tql: "SELECT DISTINCT metric_name FROM metrics WHERE NOT is_monotonic",
    reference: `SELECT DISTINCT metric_name FROM vigil.metrics WHERE ${P} AND NOT is_monotonic`,
  },

  // ------------------------------------------------------------------ string literals
  {
    id: "string-doubled-quote",
    tql: "SELECT message FROM logs WHERE message = 'it''s already gone'",
    reference: `SELECT message FROM vigil.logs WHERE ${P} AND message = 'it''s already gone'`,
    expect: { rows: [["it's already gone"]] },
  },
  {
    id: "string-backslash-quote",
    tql: String.raw`SELECT id FROM logs WHERE message = 'it\'s already gone'`,
    reference: String.raw`SELECT id FROM vigil.logs WHERE ${P} AND message = 'it\'s already gone'`,
    expect: { rows: [["log_0015"]] },
  },
  {
    id: "string-newline-escape",
    tql: String.raw`SELECT id, message FROM logs WHERE message = 'multi-line\nsecond line'`,
    reference: String.raw`SELECT id, message FROM vigil.logs WHERE ${P} AND message = 'multi-line\nsecond line'`,
    expect: { rows: [["log_0028", "multi-line\nsecond line"]] },
  },
  {
    id: "string-backslash-escape",
    tql: String.raw`SELECT id, message FROM logs WHERE message = 'path C:\\temp\\vigil.log rotated'`,
    reference: String.raw`SELECT id, message FROM vigil.logs WHERE ${P} AND message = 'path C:\\temp\\vigil.log rotated'`,
    expect: { rows: [["log_0039", "path C:\\temp\\vigil.log rotated"]] },
  },
  {
    id: "string-escape-values",
    tql: String.raw`SELECT 'a\tb' AS tab, length('\\') AS one, 'x\x41y' AS hex, concat('it''s', ' ', 'ok') AS c, '' AS empty, 'a\'b' AS q`,
    reference: String.raw`SELECT 'a\tb' AS tab, length('\\') AS one, 'x\x41y' AS hex, concat('it''s', ' ', 'ok') AS c, '' AS empty, 'a\'b' AS q`,
    expect: { rows: [["a\tb", 1, "xAy", "it's ok", "", "a'b"]] },
  },
  {
    id: "string-unknown-escape-kept",
    tql: String.raw`SELECT 'x\_y' AS a, length('\%') AS b`,
    reference: String.raw`SELECT 'x\_y' AS a, length('\%') AS b`,
  },
  {
    id: "string-unicode",
    tql: "SELECT message, length(message) AS bytes, lengthUTF8(message) AS chars, upperUTF8(message) AS up FROM logs WHERE message LIKE 'Ü%'",
    reference: `SELECT message, length(message) AS bytes, lengthUTF8(message) AS chars, upperUTF8(message) AS up FROM vigil.logs WHERE ${P} AND message LIKE 'Ü%'`,
  },
  {
    id: "string-literal-unaliased-names",
    tql: "SELECT upper('abc'), 'x', 1 + 2, count() FROM logs",
    reference: `SELECT upper('abc'), 'x', 1 + 2, count() FROM vigil.logs WHERE ${P}`,
  },

  // ------------------------------------------------------------------ identifiers, case, comments, ;
  {
    id: "quoted-identifiers-backticks",
    tql: "SELECT `service_name`, count() AS `span count` FROM `traces` GROUP BY `service_name`",
    reference: `SELECT \`service_name\`, count() AS \`span count\` FROM vigil.traces WHERE ${P} GROUP BY \`service_name\``,
  },
  {
    id: "quoted-identifiers-double-quotes",
    tql: 'SELECT "t"."span_id" AS "Span", "t"."status" FROM traces AS "t" WHERE "t"."http_status_code" = 404',
    reference: `SELECT "t"."span_id" AS "Span", "t"."status" FROM vigil.traces AS "t" WHERE t.${P} AND "t"."http_status_code" = 404`,
  },
  {
    id: "quoted-alias-with-spaces-in-order-by",
    tql: 'SELECT level AS "log level", count() AS "n rows" FROM logs GROUP BY "log level" ORDER BY "n rows" DESC, "log level"',
    reference: `SELECT level AS "log level", count() AS "n rows" FROM vigil.logs WHERE ${P} GROUP BY "log level" ORDER BY "n rows" DESC, "log level"`,
    ordered: true,
  },
  {
    id: "keywords-lowercase",
    tql: "select service_name, count() as n from traces where status = 'error' group by service_name order by n desc, service_name asc",
    reference: `SELECT service_name, count() AS n FROM vigil.traces WHERE ${P} AND status = 'error' GROUP BY service_name ORDER BY n DESC, service_name ASC`,
    ordered: true,
  },
  {
    id: "keywords-mixed-case",
    tql: "SeLeCt level, CoUnT() aS n, SUM(severity_number) As s FrOm logs WhErE level != 'debug' GrOuP bY level OrDeR bY level DeSc LiMiT 10",
    reference: `SELECT level, count() AS n, sum(severity_number) AS s FROM vigil.logs WHERE ${P} AND level != 'debug' GROUP BY level ORDER BY level DESC LIMIT 10`,
    ordered: true,
  },
  {
    id: "case-insensitive-aggregates",
    tql: "SELECT COUNT(*) AS a, Sum(duration_ms) AS b, MAX(duration_ms) AS c, AVG(1) AS d, min(duration_ms) AS e FROM traces",
    reference: `SELECT count(*) AS a, sum(duration_ms) AS b, max(duration_ms) AS c, avg(1) AS d, min(duration_ms) AS e FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "comments",
    tql: "-- leading comment\nSELECT /* inline */ count() AS n -- trailing\nFROM logs /* multi\nline */ WHERE level = 'error' /* nested /* comment */ still comment */",
    reference: `SELECT count() AS n FROM vigil.logs WHERE ${P} AND level = 'error'`,
    expect: { rows: [[5]] },
  },
  {
    id: "comment-markers-inside-strings",
    tql: "SELECT '-- not a comment' AS a, '/* nor this */' AS b, count() AS n FROM logs WHERE message != '--'",
    reference: `SELECT '-- not a comment' AS a, '/* nor this */' AS b, count() AS n FROM vigil.logs WHERE ${P} AND message != '--'`,
  },
  {
    id: "trailing-semicolon",
    tql: "SELECT count() AS n FROM metrics;",
    reference: `SELECT count() AS n FROM vigil.metrics WHERE ${P}`,
    expect: { rows: [[20]] },
  },
  {
    id: "trailing-semicolon-whitespace-comment",
    tql: "SELECT 1 AS one ;  -- done\n",
    reference: "SELECT 1 AS one",
    expect: { rows: [[1]] },
  },
  {
    id: "select-without-from",
    tql: "SELECT 1 + 1 AS two, 'x' AS s, [1, 2] AS arr",
    reference: "SELECT 1 + 1 AS two, 'x' AS s, [1, 2] AS arr",
  },
  {
    id: "select-all-keyword",
    tql: "SELECT ALL level FROM logs WHERE service_name = 'payments' AND level = 'warn'",
    reference: `SELECT ALL level FROM vigil.logs WHERE ${P} AND service_name = 'payments' AND level = 'warn'`,
  },

  // ------------------------------------------------------------------ aliases
  {
    id: "alias-without-as",
    tql: "SELECT service_name svc, count() n FROM traces GROUP BY svc ORDER BY svc",
    reference: `SELECT service_name AS svc, count() AS n FROM vigil.traces WHERE ${P} GROUP BY svc ORDER BY svc`,
    ordered: true,
  },
  {
    id: "alias-used-in-where",
    tql: "SELECT span_id, duration_ms / 1000 AS seconds FROM traces WHERE seconds > 1",
    reference: `SELECT span_id, duration_ms / 1000 AS seconds FROM vigil.traces WHERE ${P} AND seconds > 1`,
  },
  {
    id: "alias-used-in-another-column",
    tql: "SELECT input_tokens + output_tokens AS total, total * 2 AS double_total, total = total_tokens AS same FROM ai_spans",
    reference: `SELECT input_tokens + output_tokens AS total, total * 2 AS double_total, total = total_tokens AS same FROM vigil.ai_spans WHERE ${P}`,
  },
  {
    id: "table-alias-without-as",
    tql: "SELECT t.operation_name, t.span_kind FROM traces t WHERE t.span_kind IN ('producer', 'consumer')",
    reference: `SELECT t.operation_name, t.span_kind FROM vigil.traces t WHERE t.${P} AND t.span_kind IN ('producer', 'consumer')`,
  },
  {
    id: "table-name-qualifies-columns",
    tql: "SELECT traces.span_id, traces.duration_ms FROM traces WHERE traces.service_name = 'payments' AND traces.status = 'ok'",
    reference: `SELECT traces.span_id, traces.duration_ms FROM vigil.traces WHERE traces.${P} AND traces.service_name = 'payments' AND traces.status = 'ok'`,
  },

  // ------------------------------------------------------------------ DISTINCT
  {
    id: "distinct-two-columns",
    tql: "SELECT DISTINCT service_name, span_kind FROM traces",
    reference: `SELECT DISTINCT service_name, span_kind FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "distinct-ordered",
    tql: "SELECT DISTINCT level FROM logs ORDER BY level",
    reference: `SELECT DISTINCT level FROM vigil.logs WHERE ${P} ORDER BY level`,
    ordered: true,
    expect: { rows: [["debug"], ["error"], ["fatal"], ["info"], ["warn"]] },
  },
  {
    id: "distinct-expression",
    tql: "SELECT DISTINCT toDate(timestamp) AS day FROM traces",
    reference: `SELECT DISTINCT toDate(timestamp) AS day FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "count-distinct",
    tql: "SELECT count(DISTINCT trace_id) AS traces, uniqExact(service_name) AS services, count(DISTINCT status) AS statuses FROM traces",
    reference: `SELECT count(DISTINCT trace_id) AS traces, uniqExact(service_name) AS services, count(DISTINCT status) AS statuses FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "distinct-combinator",
    tql: "SELECT countDistinct(user_id) AS users, sumDistinct(http_status_code) AS codes FROM traces",
    reference: `SELECT countDistinct(user_id) AS users, sumDistinct(http_status_code) AS codes FROM vigil.traces WHERE ${P}`,
  },

  // ------------------------------------------------------------------ GROUP BY, HAVING, ORDER BY
  {
    id: "spec-example-service-summary",
    tql: `SELECT service_name, count() AS requests, countIf(status = 'error') AS errors,
       round(quantile(0.95)(duration_ms), 2) AS p95_ms
FROM traces
WHERE timestamp > now() - INTERVAL 100000 HOUR
GROUP BY service_name
ORDER BY requests DESC, service_name
LIMIT 10`,
    reference: `SELECT service_name, count() AS requests, countIf(status = 'error') AS errors, round(quantile(0.95)(duration_ms), 2) AS p95_ms FROM vigil.traces WHERE ${P} AND timestamp > now() - INTERVAL 100000 HOUR GROUP BY service_name ORDER BY requests DESC, service_name LIMIT 10`,
    ordered: true,
  },
  {
    id: "group-by-having-aggregate",
    tql: "SELECT service_name, avg(duration_ms) AS avg_ms FROM traces GROUP BY service_name HAVING count() > 10",
    reference: `SELECT service_name, avg(duration_ms) AS avg_ms FROM vigil.traces WHERE ${P} GROUP BY service_name HAVING count() > 10`,
  },
  {
    id: "having-uses-alias",
    tql: "SELECT level, count() AS n FROM logs GROUP BY level HAVING n >= 5 ORDER BY n DESC, level",
    reference: `SELECT level, count() AS n FROM vigil.logs WHERE ${P} GROUP BY level HAVING n >= 5 ORDER BY n DESC, level`,
    ordered: true,
  },
  {
    id: "having-without-group-by",
    tql: "SELECT count() AS n FROM traces HAVING n > 1",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} HAVING n > 1`,
  },
  {
    id: "group-by-two-keys",
    tql: "SELECT service_name, status, count() AS n FROM traces GROUP BY service_name, status",
    reference: `SELECT service_name, status, count() AS n FROM vigil.traces WHERE ${P} GROUP BY service_name, status`,
  },
  {
    id: "group-by-position",
    tql: "SELECT level, count() AS n FROM logs GROUP BY 1 ORDER BY 1",
    reference: `SELECT level, count() AS n FROM vigil.logs WHERE ${P} GROUP BY 1 ORDER BY 1`,
    ordered: true,
  },
  {
    id: "group-by-expression",
    tql: "SELECT intDiv(http_status_code, 100) * 100 AS class, count() AS n FROM traces WHERE http_status_code > 0 GROUP BY intDiv(http_status_code, 100) * 100 ORDER BY class",
    reference: `SELECT intDiv(http_status_code, 100) * 100 AS class, count() AS n FROM vigil.traces WHERE ${P} AND http_status_code > 0 GROUP BY intDiv(http_status_code, 100) * 100 ORDER BY class`,
    ordered: true,
  },
  {
    id: "group-by-tuple",
    tql: "SELECT (service_name, status) AS k, count() AS n FROM traces GROUP BY k",
    reference: `SELECT (service_name, status) AS k, count() AS n FROM vigil.traces WHERE ${P} GROUP BY k`,
  },
  {
    id: "order-by-multi-key",
    tql: "SELECT service_name, operation_name, duration_ms FROM traces ORDER BY service_name ASC, duration_ms DESC, operation_name",
    reference: `SELECT service_name, operation_name, duration_ms FROM vigil.traces WHERE ${P} ORDER BY service_name ASC, duration_ms DESC, operation_name`,
    ordered: true,
  },
  {
    id: "order-by-nulls-first",
    tql: "SELECT operation_name, nullIf(http_status_code, 0) AS code FROM traces WHERE service_name = 'inventory' ORDER BY code ASC NULLS FIRST, operation_name, timestamp",
    reference: `SELECT operation_name, nullIf(http_status_code, 0) AS code FROM vigil.traces WHERE ${P} AND service_name = 'inventory' ORDER BY code ASC NULLS FIRST, operation_name, timestamp`,
    ordered: true,
  },
  {
    id: "order-by-nulls-last",
    tql: "SELECT operation_name, nullIf(http_status_code, 0) AS code FROM traces WHERE service_name = 'inventory' ORDER BY code DESC NULLS LAST, operation_name, timestamp",
    reference: `SELECT operation_name, nullIf(http_status_code, 0) AS code FROM vigil.traces WHERE ${P} AND service_name = 'inventory' ORDER BY code DESC NULLS LAST, operation_name, timestamp`,
    ordered: true,
  },
  {
    id: "order-by-expression-not-selected",
    tql: "SELECT span_id FROM traces ORDER BY length(operation_name) DESC, span_id LIMIT 5",
    reference: `SELECT span_id FROM vigil.traces WHERE ${P} ORDER BY length(operation_name) DESC, span_id LIMIT 5`,
    ordered: true,
  },
  {
    id: "order-by-descending-word",
    tql: "SELECT id FROM logs WHERE service_name = 'payments' ORDER BY timestamp DESCENDING",
    reference: `SELECT id FROM vigil.logs WHERE ${P} AND service_name = 'payments' ORDER BY timestamp DESC`,
    ordered: true,
  },

  // ------------------------------------------------------------------ LIMIT forms
  {
    id: "limit-offset",
    tql: "SELECT id FROM logs ORDER BY timestamp LIMIT 5 OFFSET 10",
    reference: `SELECT id FROM vigil.logs WHERE ${P} ORDER BY timestamp LIMIT 5 OFFSET 10`,
    ordered: true,
    expect: { rows: [["log_0011"], ["log_0012"], ["log_0013"], ["log_0014"], ["log_0015"]] },
  },
  {
    id: "limit-comma-form",
    tql: "SELECT id FROM logs ORDER BY timestamp LIMIT 10, 5",
    reference: `SELECT id FROM vigil.logs WHERE ${P} ORDER BY timestamp LIMIT 10, 5`,
    ordered: true,
    expect: { rows: [["log_0011"], ["log_0012"], ["log_0013"], ["log_0014"], ["log_0015"]] },
  },
  {
    id: "limit-offset-past-end",
    tql: "SELECT id FROM logs ORDER BY timestamp LIMIT 5 OFFSET 40",
    reference: `SELECT id FROM vigil.logs WHERE ${P} ORDER BY timestamp LIMIT 5 OFFSET 40`,
    ordered: true,
    expect: { rows: [["log_0041"], ["log_0042"]] },
  },
  {
    id: "limit-by",
    tql: "SELECT service_name, operation_name, duration_ms FROM traces ORDER BY service_name, duration_ms DESC LIMIT 2 BY service_name",
    reference: `SELECT service_name, operation_name, duration_ms FROM vigil.traces WHERE ${P} ORDER BY service_name, duration_ms DESC LIMIT 2 BY service_name`,
    ordered: true,
  },
  {
    id: "limit-by-and-limit",
    tql: "SELECT service_name, operation_name FROM traces ORDER BY service_name, duration_ms DESC LIMIT 1 BY service_name LIMIT 3",
    reference: `SELECT service_name, operation_name FROM vigil.traces WHERE ${P} ORDER BY service_name, duration_ms DESC LIMIT 1 BY service_name LIMIT 3`,
    ordered: true,
  },
  {
    id: "limit-by-with-offset",
    tql: "SELECT level, id FROM logs ORDER BY level, timestamp LIMIT 1, 1 BY level",
    reference: `SELECT level, id FROM vigil.logs WHERE ${P} ORDER BY level, timestamp LIMIT 1, 1 BY level`,
    ordered: true,
  },

  // ------------------------------------------------------------------ aggregates
  {
    id: "quantile-parametric",
    tql: "SELECT quantile(0.5)(duration_ms) AS p50, quantileExact(0.9)(duration_ms) AS p90, quantile(duration_ms) AS p50_default FROM traces",
    reference: `SELECT quantile(0.5)(duration_ms) AS p50, quantileExact(0.9)(duration_ms) AS p90, quantile(duration_ms) AS p50_default FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "quantiles-multiple-levels",
    tql: "SELECT service_name, quantiles(0.5, 0.9)(duration_ms) AS q FROM traces GROUP BY service_name",
    reference: `SELECT service_name, quantiles(0.5, 0.9)(duration_ms) AS q FROM vigil.traces WHERE ${P} GROUP BY service_name`,
  },
  {
    id: "topk",
    tql: "SELECT topK(3)(service_name) AS top FROM traces",
    reference: `SELECT topK(3)(service_name) AS top FROM vigil.traces WHERE ${P}`,
    expect: { rows: [[["checkout", "inventory", "api-gateway"]]] },
  },
  {
    id: "median-functions",
    tql: "SELECT median(duration_ms) AS m, medianExact(duration_ms) AS me, quantileExactHigh(0.5)(input_tokens) AS h FROM ai_spans",
    reference: `SELECT median(duration_ms) AS m, medianExact(duration_ms) AS me, quantileExactHigh(0.5)(input_tokens) AS h FROM vigil.ai_spans WHERE ${P}`,
  },
  {
    id: "if-combinators",
    tql: "SELECT sumIf(input_tokens, provider = 'openai') AS openai_in, avgIf(duration_ms, status = 'ok') AS ok_ms, countIf(status = 'error') AS errors, maxIf(cost_usd, provider = 'anthropic') AS max_cost FROM ai_spans",
    reference: `SELECT sumIf(input_tokens, provider = 'openai') AS openai_in, avgIf(duration_ms, status = 'ok') AS ok_ms, countIf(status = 'error') AS errors, maxIf(cost_usd, provider = 'anthropic') AS max_cost FROM vigil.ai_spans WHERE ${P}`,
  },
  {
    id: "uniq-if",
    tql: "SELECT uniqIf(trace_id, status = 'error') AS error_traces, uniqExactIf(service_name, http_status_code >= 500) AS failing_services FROM traces",
    reference: `SELECT uniqIf(trace_id, status = 'error') AS error_traces, uniqExactIf(service_name, http_status_code >= 500) AS failing_services FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "sum-array-combinator",
    tql: "SELECT service_name, sumArray(bucket_counts) AS total, sum(count) AS counted FROM metrics WHERE metric_type = 'histogram' GROUP BY service_name",
    reference: `SELECT service_name, sumArray(bucket_counts) AS total, sum(count) AS counted FROM vigil.metrics WHERE ${P} AND metric_type = 'histogram' GROUP BY service_name`,
  },
  {
    id: "sum-foreach-buckets",
    tql: "SELECT route, sumForEach(duration_buckets) AS buckets FROM http_requests GROUP BY route",
    reference: `SELECT route, sumForEach(duration_buckets) AS buckets FROM vigil.http_requests WHERE ${P} GROUP BY route`,
  },
  {
    id: "stacked-combinators",
    tql: "SELECT sumArrayIf(duration_buckets, service_name = 'api-gateway') AS gw, countIfOrNull(1, 0) AS none FROM http_requests",
    reference: `SELECT sumArrayIf(duration_buckets, service_name = 'api-gateway') AS gw, countIfOrNull(1, 0) AS none FROM vigil.http_requests WHERE ${P}`,
  },
  {
    id: "or-null-on-empty",
    tql: "SELECT maxOrNull(duration_ms) AS a, sumOrNull(input_tokens) AS b, count() AS c FROM ai_spans WHERE provider = 'nobody'",
    reference: `SELECT maxOrNull(duration_ms) AS a, sumOrNull(input_tokens) AS b, count() AS c FROM vigil.ai_spans WHERE ${P} AND provider = 'nobody'`,
    expect: { rows: [[null, null, 0]] },
  },
  {
    id: "aggregates-on-empty-set",
    tql: "SELECT count() AS n, sum(duration_ms) AS s, avg(duration_ms) AS a, max(span_id) AS m FROM traces WHERE 1 = 0",
    reference: `SELECT count() AS n, sum(duration_ms) AS s, avg(duration_ms) AS a, max(span_id) AS m FROM vigil.traces WHERE ${P} AND 1 = 0`,
  },
  {
    id: "min-max-argmin-argmax",
    tql: "SELECT min(duration_ms) AS mn, max(duration_ms) AS mx, argMax(operation_name, duration_ms) AS slowest, argMin(span_id, timestamp) AS first_span FROM traces",
    reference: `SELECT min(duration_ms) AS mn, max(duration_ms) AS mx, argMax(operation_name, duration_ms) AS slowest, argMin(span_id, timestamp) AS first_span FROM vigil.traces WHERE ${P}`,
    expect: { rows: [[0.5, 5000, "reindex", S1]] },
  },
  {
    id: "group-array-sorted",
    tql: "SELECT trace_id, arraySort(groupArray(span_id)) AS spans FROM traces GROUP BY trace_id",
    reference: `SELECT trace_id, arraySort(groupArray(span_id)) AS spans FROM vigil.traces WHERE ${P} GROUP BY trace_id`,
  },
  {
    id: "group-uniq-array",
    tql: "SELECT level, arraySort(groupUniqArray(service_name)) AS services FROM logs GROUP BY level",
    reference: `SELECT level, arraySort(groupUniqArray(service_name)) AS services FROM vigil.logs WHERE ${P} GROUP BY level`,
  },
  {
    id: "group-array-sorted-parametric",
    tql: "SELECT groupArraySorted(3)(duration_ms) AS fastest FROM traces",
    reference: `SELECT groupArraySorted(3)(duration_ms) AS fastest FROM vigil.traces WHERE ${P}`,
    expect: { rows: [[[0.5, 1, 1.5]]] },
  },
  {
    id: "ai-spend-by-provider",
    tql: "SELECT provider, sum(total_tokens) AS tokens, round(sum(cost_usd), 6) AS cost, round(avg(duration_ms), 2) AS avg_ms FROM ai_spans GROUP BY provider ORDER BY tokens DESC",
    reference: `SELECT provider, sum(total_tokens) AS tokens, round(sum(cost_usd), 6) AS cost, round(avg(duration_ms), 2) AS avg_ms FROM vigil.ai_spans WHERE ${P} GROUP BY provider ORDER BY tokens DESC`,
    ordered: true,
  },
  {
    id: "error-percentage",
    tql: "SELECT round(countIf(status = 'error') / count() * 100, 2) AS error_pct FROM traces",
    reference: `SELECT round(countIf(status = 'error') / count() * 100, 2) AS error_pct FROM vigil.traces WHERE ${P}`,
    expect: { rows: [[18.75]] },
  },
  {
    id: "stddev-variance",
    tql: "SELECT round(stddevPop(duration_ms), 4) AS sd, round(varSamp(duration_ms), 4) AS v, round(avgWeighted(duration_ms, 2), 4) AS w FROM traces WHERE service_name = 'checkout'",
    reference: `SELECT round(stddevPop(duration_ms), 4) AS sd, round(varSamp(duration_ms), 4) AS v, round(avgWeighted(duration_ms, 2), 4) AS w FROM vigil.traces WHERE ${P} AND service_name = 'checkout'`,
  },
  {
    id: "sum-of-comparison",
    tql: "SELECT sum(status = 'error') AS errors, sum(http_status_code >= 400) AS http_failures FROM traces",
    reference: `SELECT sum(status = 'error') AS errors, sum(http_status_code >= 400) AS http_failures FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "uniq-sessions",
    tql: "SELECT uniq(session_id) AS sessions, uniqExact(user_id) AS users FROM logs WHERE session_id != ''",
    reference: `SELECT uniq(session_id) AS sessions, uniqExact(user_id) AS users FROM vigil.logs WHERE ${P} AND session_id != ''`,
  },

  // ------------------------------------------------------------------ dates and times
  {
    id: "to-start-of-hour",
    tql: "SELECT toStartOfHour(timestamp) AS hour, count() AS n FROM logs GROUP BY hour ORDER BY hour",
    reference: `SELECT toStartOfHour(timestamp) AS hour, count() AS n FROM vigil.logs WHERE ${P} GROUP BY hour ORDER BY hour`,
    ordered: true,
  },
  {
    id: "to-start-of-interval",
    tql: "SELECT toStartOfInterval(timestamp, INTERVAL 15 MINUTE) AS bucket, count() AS n FROM traces GROUP BY bucket ORDER BY bucket",
    reference: `SELECT toStartOfInterval(timestamp, INTERVAL 15 MINUTE) AS bucket, count() AS n FROM vigil.traces WHERE ${P} GROUP BY bucket ORDER BY bucket`,
    ordered: true,
  },
  {
    id: "to-date-errors-per-day",
    tql: "SELECT toDate(timestamp) AS day, countIf(level IN ('error', 'fatal')) AS errors FROM logs GROUP BY day ORDER BY day",
    reference: `SELECT toDate(timestamp) AS day, countIf(level IN ('error', 'fatal')) AS errors FROM vigil.logs WHERE ${P} GROUP BY day ORDER BY day`,
    ordered: true,
    expect: {
      rows: [
        ["2026-03-01", 2],
        ["2026-03-02", 2],
        ["2026-03-03", 3],
      ],
    },
  },
  {
    id: "format-date-time",
    tql: "SELECT formatDateTime(timestamp, '%Y-%m-%d %H:%i:%S') AS t FROM traces WHERE parent_span_id = '' ORDER BY timestamp",
    reference: `SELECT formatDateTime(timestamp, '%Y-%m-%d %H:%i:%S') AS t FROM vigil.traces WHERE ${P} AND parent_span_id = '' ORDER BY timestamp`,
    ordered: true,
  },
  {
    id: "date-diff-string-unit",
    tql: "SELECT fingerprint, dateDiff('hour', first_seen, last_seen) AS hours FROM error_groups ORDER BY fingerprint",
    reference: `SELECT fingerprint, dateDiff('hour', first_seen, last_seen) AS hours FROM vigil.error_groups FINAL WHERE ${P} ORDER BY fingerprint`,
    ordered: true,
  },
  {
    id: "date-diff-identifier-unit",
    tql: "SELECT fingerprint, dateDiff(hour, first_seen, last_seen) AS hours FROM error_groups ORDER BY fingerprint",
    reference: `SELECT fingerprint, dateDiff(hour, first_seen, last_seen) AS hours FROM vigil.error_groups FINAL WHERE ${P} ORDER BY fingerprint`,
    ordered: true,
  },
  {
    id: "timestamp-vs-datetime64",
    tql: "SELECT count() AS n FROM traces WHERE timestamp >= toDateTime64('2026-03-02 00:00:00', 9, 'UTC')",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND timestamp >= toDateTime64('2026-03-02 00:00:00', 9, 'UTC')`,
  },
  {
    id: "timestamp-vs-date-string",
    tql: "SELECT count() AS n FROM traces WHERE timestamp < '2026-03-02'",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND timestamp < '2026-03-02'`,
    expect: { rows: [[24]] },
  },
  {
    id: "now-minus-interval-hours",
    tql: "SELECT count() AS n FROM logs WHERE timestamp > now() - INTERVAL 100000 HOUR",
    reference: `SELECT count() AS n FROM vigil.logs WHERE ${P} AND timestamp > now() - INTERVAL 100000 HOUR`,
    expect: { rows: [[42]] },
  },
  {
    id: "now-future-bound",
    tql: "SELECT count() AS n FROM traces WHERE timestamp < now() + INTERVAL 1 DAY AND timestamp > now() - INTERVAL 3650 DAYS",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND timestamp < now() + INTERVAL 1 DAY AND timestamp > now() - INTERVAL 3650 DAY`,
    expect: { rows: [[48]] },
  },
  {
    id: "interval-units",
    tql: "SELECT toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 90 SECOND AS s, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 5 MINUTES AS mi, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 2 HOURS AS h, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 2 DAY AS d, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 3 WEEK AS w, toDateTime('2026-03-01 00:00:00', 'UTC') - INTERVAL 1 MONTH AS mo, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 1 QUARTER AS q, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 1 YEAR AS y",
    reference:
      "SELECT toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 90 SECOND AS s, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 5 MINUTE AS mi, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 2 HOUR AS h, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 2 DAY AS d, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 3 WEEK AS w, toDateTime('2026-03-01 00:00:00', 'UTC') - INTERVAL 1 MONTH AS mo, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 1 QUARTER AS q, toDateTime('2026-03-01 00:00:00', 'UTC') + INTERVAL 1 YEAR AS y",
  },
  {
    id: "interval-sub-second-units",
    tql: "SELECT toDateTime64('2026-03-01 00:00:00', 9, 'UTC') + INTERVAL 1500 MILLISECOND AS ms, toDateTime64('2026-03-01 00:00:00', 9, 'UTC') + INTERVAL 10 MICROSECOND AS us, toDateTime64('2026-03-01 00:00:00', 9, 'UTC') + INTERVAL 7 NANOSECOND AS ns",
    reference:
      "SELECT toDateTime64('2026-03-01 00:00:00', 9, 'UTC') + INTERVAL 1500 MILLISECOND AS ms, toDateTime64('2026-03-01 00:00:00', 9, 'UTC') + INTERVAL 10 MICROSECOND AS us, toDateTime64('2026-03-01 00:00:00', 9, 'UTC') + INTERVAL 7 NANOSECOND AS ns",
  },
  {
    id: "interval-in-where-on-column",
    tql: "SELECT span_id FROM traces WHERE end_timestamp > timestamp + INTERVAL 2 SECOND",
    reference: `SELECT span_id FROM vigil.traces WHERE ${P} AND end_timestamp > timestamp + INTERVAL 2 SECOND`,
  },
  {
    id: "date-diff-millis-span",
    tql: `SELECT span_id, dateDiff('millisecond', timestamp, end_timestamp) AS ms FROM traces WHERE trace_id = '${T2}'`,
    reference: `SELECT span_id, dateDiff('millisecond', timestamp, end_timestamp) AS ms FROM vigil.traces WHERE ${P} AND trace_id = '${T2}'`,
  },
  {
    id: "nanosecond-timestamps",
    tql: `SELECT timestamp, end_timestamp, duration_ns, toUnixTimestamp(timestamp) AS unix, toUnixTimestamp64Nano(timestamp) AS unix_ns FROM traces WHERE span_id = '${S1}'`,
    reference: `SELECT timestamp, end_timestamp, duration_ns, toUnixTimestamp(timestamp) AS unix, toUnixTimestamp64Nano(timestamp) AS unix_ns FROM vigil.traces WHERE ${P} AND span_id = '${S1}'`,
    expect: {
      rows: [
        [
          "2026-03-01 10:00:00.123456789",
          "2026-03-01 10:00:00.243456789",
          120000000,
          1772359200,
          "1772359200123456789",
        ],
      ],
    },
  },
  {
    id: "date-parts",
    tql: "SELECT toYear(timestamp) AS y, toMonth(timestamp) AS m, toDayOfMonth(timestamp) AS d, toHour(timestamp) AS h, toMinute(timestamp) AS mi, toDayOfWeek(timestamp) AS dow FROM logs WHERE id = 'log_0001'",
    reference: `SELECT toYear(timestamp) AS y, toMonth(timestamp) AS m, toDayOfMonth(timestamp) AS d, toHour(timestamp) AS h, toMinute(timestamp) AS mi, toDayOfWeek(timestamp) AS dow FROM vigil.logs WHERE ${P} AND id = 'log_0001'`,
    expect: { rows: [[2026, 3, 1, 9, 59, 7]] },
  },
  {
    id: "date-trunc",
    tql: "SELECT dateTrunc('day', timestamp) AS day, count() AS n FROM ai_spans GROUP BY day",
    reference: `SELECT dateTrunc('day', timestamp) AS day, count() AS n FROM vigil.ai_spans WHERE ${P} GROUP BY day`,
  },
  {
    id: "start-of-minute-and-day",
    tql: "SELECT toStartOfMinute(timestamp) AS minute, toStartOfDay(timestamp) AS day, toStartOfFiveMinutes(timestamp) AS five FROM http_requests WHERE status_code >= 500",
    reference: `SELECT toStartOfMinute(timestamp) AS minute, toStartOfDay(timestamp) AS day, toStartOfFiveMinutes(timestamp) AS five FROM vigil.http_requests WHERE ${P} AND status_code >= 500`,
  },
  {
    id: "date-add-sub",
    tql: "SELECT fingerprint, dateAdd(first_seen, INTERVAL 1 DAY) AS next_day, dateSub(last_seen, INTERVAL 2 HOUR) AS earlier, addMinutes(first_seen, 30) AS later, subtractHours(last_seen, 1) AS hour_before FROM error_groups WHERE fingerprint IN ('fp-a1', 'fp-c3')",
    reference: `SELECT fingerprint, dateAdd(first_seen, INTERVAL 1 DAY) AS next_day, dateSub(last_seen, INTERVAL 2 HOUR) AS earlier, addMinutes(first_seen, 30) AS later, subtractHours(last_seen, 1) AS hour_before FROM vigil.error_groups FINAL WHERE ${P} AND fingerprint IN ('fp-a1', 'fp-c3')`,
  },
  {
    id: "date-add-unit-keyword",
    tql: "SELECT fingerprint, dateAdd(DAY, 1, first_seen) AS next_day FROM error_groups WHERE fingerprint = 'fp-c3'",
    reference: `SELECT fingerprint, dateAdd(DAY, 1, first_seen) AS next_day FROM vigil.error_groups FINAL WHERE ${P} AND fingerprint = 'fp-c3'`,
  },
  {
    id: "observed-lag",
    tql: "SELECT dateDiff('millisecond', timestamp, observed_timestamp) AS lag, count() AS n FROM logs GROUP BY lag",
    reference: `SELECT dateDiff('millisecond', timestamp, observed_timestamp) AS lag, count() AS n FROM vigil.logs WHERE ${P} GROUP BY lag`,
    expect: { rows: [[5, 42]] },
  },
  {
    id: "trace-summary",
    tql: "SELECT trace_id, count() AS spans, countIf(status = 'error') AS errors, arraySort(groupUniqArray(service_name)) AS services, dateDiff('millisecond', min(timestamp), max(end_timestamp)) AS ms FROM traces GROUP BY trace_id ORDER BY trace_id",
    reference: `SELECT trace_id, count() AS spans, countIf(status = 'error') AS errors, arraySort(groupUniqArray(service_name)) AS services, dateDiff('millisecond', min(timestamp), max(end_timestamp)) AS ms FROM vigil.traces WHERE ${P} GROUP BY trace_id ORDER BY trace_id`,
    ordered: true,
  },

  // ------------------------------------------------------------------ strings
  {
    id: "string-functions",
    tql: `SELECT upper(service_name) AS u, lower('ABC') AS l, concat(service_name, ':', operation_name) AS c, substring(operation_name, 1, 4) AS s, length(operation_name) AS len, reverse(service_name) AS r FROM traces WHERE span_id = '${S5}'`,
    reference: `SELECT upper(service_name) AS u, lower('ABC') AS l, concat(service_name, ':', operation_name) AS c, substring(operation_name, 1, 4) AS s, length(operation_name) AS len, reverse(service_name) AS r FROM vigil.traces WHERE ${P} AND span_id = '${S5}'`,
    expect: {
      rows: [["API-GATEWAY", "abc", "api-gateway:POST /api/checkout", "POST", 18, "yawetag-ipa"]],
    },
  },
  {
    id: "concat-operator",
    tql: `SELECT service_name || '/' || operation_name AS path FROM traces WHERE trace_id = '${T4}'`,
    reference: `SELECT service_name || '/' || operation_name AS path FROM vigil.traces WHERE ${P} AND trace_id = '${T4}'`,
    expect: { rows: [["api-gateway/DELETE /api/cart/{id}"], ["checkout/DELETE /cart/{id}"]] },
  },
  {
    id: "trim-and-pad",
    tql: "SELECT trim(message) AS t, length(message) AS before, length(trim(message)) AS after, trimLeft(message) AS l, leftPad('7', 3, '0') AS p FROM logs WHERE message LIKE '  %'",
    reference: `SELECT trim(message) AS t, length(message) AS before, length(trim(message)) AS after, trimLeft(message) AS l, leftPad('7', 3, '0') AS p FROM vigil.logs WHERE ${P} AND message LIKE '  %'`,
    expect: { rows: [["padded message", 18, 14, "padded message  ", "007"]] },
  },
  {
    id: "split-and-join",
    tql: "SELECT splitByChar('/', http_target) AS parts, arrayStringConcat(splitByChar('/', http_target), '|') AS joined FROM traces WHERE http_target != '' AND service_name = 'inventory'",
    reference: `SELECT splitByChar('/', http_target) AS parts, arrayStringConcat(splitByChar('/', http_target), '|') AS joined FROM vigil.traces WHERE ${P} AND http_target != '' AND service_name = 'inventory'`,
  },
  {
    id: "position-starts-ends",
    tql: "SELECT message, position(message, 'order') AS pos, startsWith(message, 'GET') AS get, endsWith(message, '200') AS ok FROM logs WHERE service_name = 'api-gateway'",
    reference: `SELECT message, position(message, 'order') AS pos, startsWith(message, 'GET') AS get, endsWith(message, '200') AS ok FROM vigil.logs WHERE ${P} AND service_name = 'api-gateway'`,
  },
  {
    id: "replace-all",
    tql: "SELECT DISTINCT replaceAll(http_route, '{id}', ':id') AS r FROM traces WHERE http_route LIKE '%{id}%'",
    reference: `SELECT DISTINCT replaceAll(http_route, '{id}', ':id') AS r FROM vigil.traces WHERE ${P} AND http_route LIKE '%{id}%'`,
  },
  {
    id: "nested-string-functions",
    tql: "SELECT upper(substring(concat(service_name, '-', toString(http_status_code)), 1, 10)) AS v FROM traces WHERE http_status_code = 503",
    reference: `SELECT upper(substring(concat(service_name, '-', toString(http_status_code)), 1, 10)) AS v FROM vigil.traces WHERE ${P} AND http_status_code = 503`,
  },
  {
    id: "empty-not-empty",
    tql: "SELECT countIf(empty(trace_id)) AS untraced, countIf(notEmpty(trace_id)) AS traced FROM logs",
    reference: `SELECT countIf(empty(trace_id)) AS untraced, countIf(notEmpty(trace_id)) AS traced FROM vigil.logs WHERE ${P}`,
    expect: { rows: [[9, 33]] },
  },

  // ------------------------------------------------------------------ regular expressions
  {
    id: "regex-match",
    tql: "SELECT id FROM logs WHERE match(message, '^(GET|POST) /api/')",
    reference: `SELECT id FROM vigil.logs WHERE ${P} AND match(message, '^(GET|POST) /api/')`,
  },
  {
    id: "regex-extract",
    tql: String.raw`SELECT extract(message, 'order (\\d+)') AS order_id FROM logs WHERE extract(message, 'order (\\d+)') != ''`,
    reference: String.raw`SELECT extract(message, 'order (\\d+)') AS order_id FROM vigil.logs WHERE ${P} AND extract(message, 'order (\\d+)') != ''`,
    expect: { rows: [["42"], ["46"]] },
  },
  {
    id: "regex-replace-all-templates",
    tql: "SELECT replaceRegexpAll(message, '[0-9]+', 'N') AS template, count() AS n FROM logs GROUP BY template HAVING n > 1",
    reference: `SELECT replaceRegexpAll(message, '[0-9]+', 'N') AS template, count() AS n FROM vigil.logs WHERE ${P} GROUP BY template HAVING n > 1`,
  },
  {
    id: "regex-extract-all",
    tql: String.raw`SELECT extractAll(message, '\\d+') AS numbers FROM logs WHERE service_name = 'inventory' AND match(message, '\\d')`,
    reference: String.raw`SELECT extractAll(message, '\\d+') AS numbers FROM vigil.logs WHERE ${P} AND service_name = 'inventory' AND match(message, '\\d')`,
  },
  {
    id: "regex-replace-one-and-quote-meta",
    tql: "SELECT replaceRegexpOne(http_target, '^/api', '') AS path, regexpQuoteMeta(http_route) AS quoted FROM traces WHERE service_name = 'api-gateway' AND http_route LIKE '/api/orders%'",
    reference: `SELECT replaceRegexpOne(http_target, '^/api', '') AS path, regexpQuoteMeta(http_route) AS quoted FROM vigil.traces WHERE ${P} AND service_name = 'api-gateway' AND http_route LIKE '/api/orders%'`,
  },

  // ------------------------------------------------------------------ JSON in messages
  {
    id: "json-extract-scalars",
    tql: "SELECT JSONExtractString(message, 'event') AS event, JSONExtractInt(message, 'order_id') AS order_id, JSONExtractFloat(message, 'amount') AS amount FROM logs WHERE isValidJSON(message)",
    reference: `SELECT JSONExtractString(message, 'event') AS event, JSONExtractInt(message, 'order_id') AS order_id, JSONExtractFloat(message, 'amount') AS amount FROM vigil.logs WHERE ${P} AND isValidJSON(message)`,
  },
  {
    id: "json-extract-nested-typed",
    tql: "SELECT JSONExtractInt(message, 'tokens', 'input') AS input, JSONExtract(message, 'tokens', 'output', 'Int64') AS output FROM logs WHERE JSONHas(message, 'tokens')",
    reference: `SELECT JSONExtractInt(message, 'tokens', 'input') AS input, JSONExtract(message, 'tokens', 'output', 'Int64') AS output FROM vigil.logs WHERE ${P} AND JSONHas(message, 'tokens')`,
    expect: { rows: [[1200, 350]] },
  },
  {
    id: "json-extract-array",
    tql: "SELECT JSONExtract(message, 'items', 'Array(String)') AS items, JSONLength(message, 'items') AS n, JSONExtractKeys(message) AS keys FROM logs WHERE JSONHas(message, 'items')",
    reference: `SELECT JSONExtract(message, 'items', 'Array(String)') AS items, JSONLength(message, 'items') AS n, JSONExtractKeys(message) AS keys FROM vigil.logs WHERE ${P} AND JSONHas(message, 'items')`,
  },
  {
    id: "json-raw-and-type",
    tql: "SELECT JSONExtractRaw(message, 'tokens') AS raw, toString(JSONType(message, 'tokens')) AS type FROM logs WHERE message LIKE '{%'",
    reference: `SELECT JSONExtractRaw(message, 'tokens') AS raw, toString(JSONType(message, 'tokens')) AS type FROM vigil.logs WHERE ${P} AND message LIKE '{%'`,
  },
  {
    id: "json-simple-and-group",
    tql: "SELECT simpleJSONExtractString(message, 'currency') AS currency, sum(JSONExtractFloat(message, 'amount')) AS amount FROM logs WHERE isValidJSON(message) GROUP BY currency",
    reference: `SELECT simpleJSONExtractString(message, 'currency') AS currency, sum(JSONExtractFloat(message, 'amount')) AS amount FROM vigil.logs WHERE ${P} AND isValidJSON(message) GROUP BY currency`,
  },

  // ------------------------------------------------------------------ maps
  {
    id: "map-element-access",
    tql: "SELECT span_id, attributes['http.method'] AS method, attributes['user.tier'] AS tier FROM traces WHERE attributes['user.tier'] != ''",
    reference: `SELECT span_id, attributes['http.method'] AS method, attributes['user.tier'] AS tier FROM vigil.traces WHERE ${P} AND attributes['user.tier'] != ''`,
  },
  {
    id: "map-group-by-element",
    tql: "SELECT attributes['http.method'] AS method, count() AS n FROM traces GROUP BY method",
    reference: `SELECT attributes['http.method'] AS method, count() AS n FROM vigil.traces WHERE ${P} GROUP BY method`,
  },
  {
    id: "map-keys-distinct",
    tql: "SELECT DISTINCT arrayJoin(mapKeys(attributes)) AS key FROM logs",
    reference: `SELECT DISTINCT arrayJoin(mapKeys(attributes)) AS key FROM vigil.logs WHERE ${P}`,
  },
  {
    id: "map-contains",
    tql: "SELECT count() AS n, countIf(mapContains(attributes, 'db.statement')) AS with_statement FROM traces WHERE mapContains(attributes, 'db.system')",
    reference: `SELECT count() AS n, countIf(mapContains(attributes, 'db.statement')) AS with_statement FROM vigil.traces WHERE ${P} AND mapContains(attributes, 'db.system')`,
    expect: { rows: [[4, 3]] },
  },
  {
    id: "map-literal-functions",
    tql: "SELECT map('a', 1, 'b', 2) AS m, mapKeys(map('x', 'y')) AS k, mapValues(map('x', 'y')) AS v, map('a', 1)['a'] AS one",
    reference:
      "SELECT map('a', 1, 'b', 2) AS m, mapKeys(map('x', 'y')) AS k, mapValues(map('x', 'y')) AS v, map('a', 1)['a'] AS one",
  },
  {
    id: "map-resource-attributes",
    tql: "SELECT resource_attributes['host.name'] AS host, count() AS n FROM metrics GROUP BY host",
    reference: `SELECT resource_attributes['host.name'] AS host, count() AS n FROM vigil.metrics WHERE ${P} GROUP BY host`,
  },
  {
    id: "map-filter-lambda",
    tql: "SELECT id, mapFilter((k, v) -> k LIKE 'http.%', attributes) AS http_attributes FROM logs WHERE mapContains(attributes, 'http.method')",
    reference: `SELECT id, mapFilter((k, v) -> k LIKE 'http.%', attributes) AS http_attributes FROM vigil.logs WHERE ${P} AND mapContains(attributes, 'http.method')`,
  },
  {
    id: "map-whole-column",
    tql: `SELECT attributes, resource_attributes FROM traces WHERE span_id = '${S1}'`,
    reference: `SELECT attributes, resource_attributes FROM vigil.traces WHERE ${P} AND span_id = '${S1}'`,
  },

  // ------------------------------------------------------------------ arrays, tuples, ARRAY JOIN
  {
    id: "array-literals",
    tql: "SELECT [1, 2, 3] AS a, [1, 2, 3][2] AS second, ['x', 'y'] AS s, [] AS empty, length([1, 2]) AS len, has([1, 2], 2) AS h, [[1], [2, 3]] AS nested",
    reference:
      "SELECT [1, 2, 3] AS a, [1, 2, 3][2] AS second, ['x', 'y'] AS s, [] AS empty, length([1, 2]) AS len, has([1, 2], 2) AS h, [[1], [2, 3]] AS nested",
  },
  {
    id: "tuple-literals",
    tql: "SELECT (1, 'a') AS t, (1, 'a').2 AS second, tuple(1, 2, 3).3 AS third, tupleElement((5, 6), 1) AS first",
    reference:
      "SELECT (1, 'a') AS t, (1, 'a').2 AS second, tuple(1, 2, 3).3 AS third, tupleElement((5, 6), 1) AS first",
  },
  {
    id: "tuple-access-on-subquery-column",
    tql: "SELECT pair.1 AS svc, pair.2 AS st, count() AS n FROM (SELECT (service_name, status) AS pair FROM traces) GROUP BY svc, st",
    reference: `SELECT pair.1 AS svc, pair.2 AS st, count() AS n FROM (SELECT (service_name, status) AS pair FROM vigil.traces WHERE ${P}) GROUP BY svc, st`,
  },
  {
    id: "events-arrays",
    tql: "SELECT span_id, events_name, length(events_name) AS n FROM traces WHERE notEmpty(events_name)",
    reference: `SELECT span_id, events_name, length(events_name) AS n FROM vigil.traces WHERE ${P} AND notEmpty(events_name)`,
  },
  {
    id: "events-exception-types-lambda",
    tql: "SELECT span_id, arrayMap(a -> a['exception.type'], arrayFilter((a, n) -> n = 'exception', events_attributes, events_name)) AS exception_types FROM traces WHERE has(events_name, 'exception')",
    reference: `SELECT span_id, arrayMap(a -> a['exception.type'], arrayFilter((a, n) -> n = 'exception', events_attributes, events_name)) AS exception_types FROM vigil.traces WHERE ${P} AND has(events_name, 'exception')`,
  },
  {
    id: "events-timestamps",
    tql: "SELECT span_id, events_timestamp, events_timestamp[1] AS first_event FROM traces WHERE length(events_timestamp) > 1",
    reference: `SELECT span_id, events_timestamp, events_timestamp[1] AS first_event FROM vigil.traces WHERE ${P} AND length(events_timestamp) > 1`,
  },
  {
    id: "span-links",
    tql: "SELECT span_id, links_trace_id, links_span_id, links_attributes FROM traces WHERE notEmpty(links_trace_id)",
    reference: `SELECT span_id, links_trace_id, links_span_id, links_attributes FROM vigil.traces WHERE ${P} AND notEmpty(links_trace_id)`,
  },
  {
    id: "array-join-function",
    tql: "SELECT arrayJoin(events_name) AS event, count() AS n FROM traces GROUP BY event",
    reference: `SELECT arrayJoin(events_name) AS event, count() AS n FROM vigil.traces WHERE ${P} GROUP BY event`,
  },
  {
    id: "array-join-clause",
    tql: "SELECT span_id, event FROM traces ARRAY JOIN events_name AS event WHERE event = 'retry'",
    reference: `SELECT span_id, event FROM vigil.traces ARRAY JOIN events_name AS event WHERE ${P} AND event = 'retry'`,
  },
  {
    id: "array-join-two-arrays",
    tql: "SELECT span_id, name, attrs['attempt'] AS attempt FROM traces ARRAY JOIN events_name AS name, events_attributes AS attrs WHERE name = 'retry'",
    reference: `SELECT span_id, name, attrs['attempt'] AS attempt FROM vigil.traces ARRAY JOIN events_name AS name, events_attributes AS attrs WHERE ${P} AND name = 'retry'`,
  },
  {
    id: "left-array-join",
    tql: `SELECT span_id, event FROM traces LEFT ARRAY JOIN events_name AS event WHERE trace_id = '${T2}'`,
    reference: `SELECT span_id, event FROM vigil.traces LEFT ARRAY JOIN events_name AS event WHERE ${P} AND trace_id = '${T2}'`,
  },
  {
    id: "array-join-column-without-alias",
    tql: "SELECT span_id, finish_reasons FROM ai_spans ARRAY JOIN finish_reasons",
    reference: `SELECT span_id, finish_reasons FROM vigil.ai_spans ARRAY JOIN finish_reasons WHERE ${P}`,
  },
  {
    id: "array-map",
    tql: "SELECT arrayMap(x -> x * 2, bucket_counts) AS doubled FROM metrics WHERE metric_type = 'histogram'",
    reference: `SELECT arrayMap(x -> x * 2, bucket_counts) AS doubled FROM vigil.metrics WHERE ${P} AND metric_type = 'histogram'`,
  },
  {
    id: "array-filter",
    tql: "SELECT arrayFilter(x -> x > 0, duration_buckets) AS nonzero FROM http_requests WHERE route = '/api/products'",
    reference: `SELECT arrayFilter(x -> x > 0, duration_buckets) AS nonzero FROM vigil.http_requests WHERE ${P} AND route = '/api/products'`,
    expect: { rows: [[[2, 5, 5, 10, 5, 2, 1]]] },
  },
  {
    id: "array-exists",
    tql: "SELECT count() AS n FROM traces WHERE arrayExists(a -> a['exception.type'] = 'TimeoutError', events_attributes)",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND arrayExists(a -> a['exception.type'] = 'TimeoutError', events_attributes)`,
    expect: { rows: [[2]] },
  },
  {
    id: "array-sum-count-all",
    tql: "SELECT route, arraySum(duration_buckets) AS total, request_count, arrayCount(x -> x > 0, duration_buckets) AS used, arrayAll(x -> x <= request_count, duration_buckets) AS bounded FROM http_requests WHERE service_name = 'payments'",
    reference: `SELECT route, arraySum(duration_buckets) AS total, request_count, arrayCount(x -> x > 0, duration_buckets) AS used, arrayAll(x -> x <= request_count, duration_buckets) AS bounded FROM vigil.http_requests WHERE ${P} AND service_name = 'payments'`,
  },
  {
    id: "array-zip-slice",
    tql: "SELECT arrayZip(explicit_bounds, arraySlice(bucket_counts, 1, length(explicit_bounds))) AS z, bucket_counts[-1] AS overflow FROM metrics WHERE metric_type = 'histogram' AND service_name = 'payments'",
    reference: `SELECT arrayZip(explicit_bounds, arraySlice(bucket_counts, 1, length(explicit_bounds))) AS z, bucket_counts[-1] AS overflow FROM vigil.metrics WHERE ${P} AND metric_type = 'histogram' AND service_name = 'payments'`,
  },
  {
    id: "summary-quantile-lookup",
    tql: "SELECT metric_name, quantiles, quantile_values, arrayElement(quantile_values, indexOf(quantiles, 0.9)) AS p90 FROM metrics WHERE metric_type = 'summary'",
    reference: `SELECT metric_name, quantiles, quantile_values, arrayElement(quantile_values, indexOf(quantiles, 0.9)) AS p90 FROM vigil.metrics WHERE ${P} AND metric_type = 'summary'`,
  },
  {
    id: "array-negative-index",
    tql: "SELECT span_id, finish_reasons[1] AS first_reason, finish_reasons[-1] AS last_reason FROM ai_spans WHERE length(finish_reasons) > 0",
    reference: `SELECT span_id, finish_reasons[1] AS first_reason, finish_reasons[-1] AS last_reason FROM vigil.ai_spans WHERE ${P} AND length(finish_reasons) > 0`,
  },
  {
    id: "array-range-enumerate",
    tql: "SELECT range(5) AS r, arrayEnumerate(['a', 'b']) AS e, arrayReverse([1, 2, 3]) AS rev, arrayDistinct([1, 1, 2]) AS d",
    reference:
      "SELECT range(5) AS r, arrayEnumerate(['a', 'b']) AS e, arrayReverse([1, 2, 3]) AS rev, arrayDistinct([1, 1, 2]) AS d",
  },
  {
    id: "lambda-two-params",
    tql: "SELECT arrayMap((x, y) -> x + y, [1, 2], [10, 20]) AS sums, arraySort(x -> -x, [3, 1, 2]) AS desc_sorted, arrayFirst(x -> x > 1, [1, 2, 3]) AS first_big",
    reference:
      "SELECT arrayMap((x, y) -> x + y, [1, 2], [10, 20]) AS sums, arraySort(x -> -x, [3, 1, 2]) AS desc_sorted, arrayFirst(x -> x > 1, [1, 2, 3]) AS first_big",
    expect: { rows: [[[11, 22], [3, 2, 1], 2]] },
  },
  {
    id: "lambda-reads-column",
    tql: "SELECT route, arrayMap(b -> round(b / request_count, 2), arrayFilter(b -> b > 0, duration_buckets)) AS shares FROM http_requests WHERE route = '/refund'",
    reference: `SELECT route, arrayMap(b -> round(b / request_count, 2), arrayFilter(b -> b > 0, duration_buckets)) AS shares FROM vigil.http_requests WHERE ${P} AND route = '/refund'`,
  },
  {
    id: "array-cum-sum-of-merged-buckets",
    tql: "SELECT route, arrayCumSum(sumForEach(duration_buckets)) AS cumulative FROM http_requests WHERE route = '/api/orders/{id}' GROUP BY route",
    reference: `SELECT route, arrayCumSum(sumForEach(duration_buckets)) AS cumulative FROM vigil.http_requests WHERE ${P} AND route = '/api/orders/{id}' GROUP BY route`,
  },

  // ------------------------------------------------------------------ CASE, ternary, conditionals
  {
    id: "case-searched",
    tql: "SELECT span_id, CASE WHEN http_status_code >= 500 THEN 'server error' WHEN http_status_code >= 400 THEN 'client error' WHEN http_status_code > 0 THEN 'ok' ELSE 'not http' END AS class FROM traces",
    reference: `SELECT span_id, CASE WHEN http_status_code >= 500 THEN 'server error' WHEN http_status_code >= 400 THEN 'client error' WHEN http_status_code > 0 THEN 'ok' ELSE 'not http' END AS class FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "case-simple-form",
    tql: "SELECT level, CASE level WHEN 'error' THEN 3 WHEN 'fatal' THEN 4 WHEN 'warn' THEN 2 ELSE 1 END AS rank, count() AS n FROM logs GROUP BY level, rank",
    reference: `SELECT level, CASE level WHEN 'error' THEN 3 WHEN 'fatal' THEN 4 WHEN 'warn' THEN 2 ELSE 1 END AS rank, count() AS n FROM vigil.logs WHERE ${P} GROUP BY level, rank`,
  },
  {
    id: "case-without-else",
    tql: "SELECT CASE WHEN 1 = 2 THEN 'x' END AS v, CASE 1 WHEN 1 THEN 'one' END AS w",
    reference: "SELECT CASE WHEN 1 = 2 THEN 'x' END AS v, CASE 1 WHEN 1 THEN 'one' END AS w",
  },
  {
    id: "case-in-aggregate",
    tql: "SELECT sum(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors, sum(CASE span_kind WHEN 'server' THEN duration_ms ELSE 0 END) AS server_ms FROM traces",
    reference: `SELECT sum(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors, sum(CASE span_kind WHEN 'server' THEN duration_ms ELSE 0 END) AS server_ms FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "ternary",
    tql: `SELECT span_id, status = 'error' ? 'bad' : 'good' AS verdict FROM traces WHERE trace_id = '${T5}'`,
    reference: `SELECT span_id, status = 'error' ? 'bad' : 'good' AS verdict FROM vigil.traces WHERE ${P} AND trace_id = '${T5}'`,
  },
  {
    id: "ternary-nested",
    tql: "SELECT duration_ms > 1000 ? 'slow' : duration_ms > 100 ? 'medium' : 'fast' AS speed, count() AS n FROM traces GROUP BY speed",
    // ClickHouse's own parser needs the nested ternary in parentheses; TQL does not.
    reference: `SELECT duration_ms > 1000 ? 'slow' : (duration_ms > 100 ? 'medium' : 'fast') AS speed, count() AS n FROM vigil.traces WHERE ${P} GROUP BY speed`,
  },
  {
    id: "if-and-multi-if",
    tql: "SELECT if(cost_usd > 0.01, 'expensive', 'cheap') AS tier, multiIf(provider = 'openai', 1, provider = 'anthropic', 2, 0) AS p, count() AS n FROM ai_spans GROUP BY tier, p",
    reference: `SELECT if(cost_usd > 0.01, 'expensive', 'cheap') AS tier, multiIf(provider = 'openai', 1, provider = 'anthropic', 2, 0) AS p, count() AS n FROM vigil.ai_spans WHERE ${P} GROUP BY tier, p`,
  },
  {
    id: "if-null-null-if",
    tql: "SELECT ifNull(nullIf(response_model, ''), request_model) AS model, count() AS n FROM ai_spans GROUP BY model",
    reference: `SELECT ifNull(nullIf(response_model, ''), request_model) AS model, count() AS n FROM vigil.ai_spans WHERE ${P} GROUP BY model`,
  },
  {
    id: "transform",
    tql: "SELECT transform(level, ['error', 'fatal'], ['E', 'F'], '-') AS code, count() AS n FROM logs GROUP BY code",
    reference: `SELECT transform(level, ['error', 'fatal'], ['E', 'F'], '-') AS code, count() AS n FROM vigil.logs WHERE ${P} GROUP BY code`,
  },

  // ------------------------------------------------------------------ casts and conversions
  {
    id: "cast-as",
    tql: `SELECT CAST(http_status_code AS String) AS code, CAST('42' AS UInt8) AS n, CAST(duration_ms AS Int32) AS ms FROM traces WHERE span_id = '${S1}'`,
    reference: `SELECT CAST(http_status_code AS String) AS code, CAST('42' AS UInt8) AS n, CAST(duration_ms AS Int32) AS ms FROM vigil.traces WHERE ${P} AND span_id = '${S1}'`,
    expect: { rows: [["200", 42, 120]] },
  },
  {
    id: "cast-double-colon",
    tql: `SELECT http_status_code::String AS code, '2026-03-01'::Date AS d, 1::Float64 AS f, duration_ms::UInt32 + 1 AS ms FROM traces WHERE span_id = '${S5}'`,
    reference: `SELECT http_status_code::String AS code, '2026-03-01'::Date AS d, 1::Float64 AS f, duration_ms::UInt32 + 1 AS ms FROM vigil.traces WHERE ${P} AND span_id = '${S5}'`,
    expect: { rows: [["500", "2026-03-01", 1, 951]] },
  },
  {
    id: "cast-comma-string-type",
    tql: "SELECT CAST(attributes['order.id'], 'UInt32') AS order_id FROM traces WHERE mapContains(attributes, 'order.id')",
    reference: `SELECT CAST(attributes['order.id'], 'UInt32') AS order_id FROM vigil.traces WHERE ${P} AND mapContains(attributes, 'order.id')`,
  },
  {
    id: "cast-nullable-low-cardinality",
    tql: "SELECT CAST(NULL AS Nullable(String)) AS a, CAST(1 AS Nullable(UInt8)) AS b, CAST('x', 'LowCardinality(String)') AS c",
    reference:
      "SELECT CAST(NULL AS Nullable(String)) AS a, CAST(1 AS Nullable(UInt8)) AS b, CAST('x', 'LowCardinality(String)') AS c",
  },
  {
    id: "cast-datetime-types",
    tql: `SELECT CAST('2026-03-01 10:00:00.5' AS DateTime64(3, 'UTC')) AS t, CAST(timestamp AS DateTime) AS dt, CAST(timestamp AS DateTime('UTC')) AS dtu FROM traces WHERE span_id = '${S1}'`,
    reference: `SELECT CAST('2026-03-01 10:00:00.5' AS DateTime64(3, 'UTC')) AS t, CAST(timestamp AS DateTime) AS dt, CAST(timestamp AS DateTime('UTC')) AS dtu FROM vigil.traces WHERE ${P} AND span_id = '${S1}'`,
  },
  {
    id: "cast-sql-type-aliases",
    tql: `SELECT CAST(duration_ns AS BIGINT) AS b, CAST(1 AS BOOLEAN) AS t, CAST(2.5 AS DOUBLE) AS d, CAST('a' AS VARCHAR) AS v, CAST(7 AS INT) AS i FROM traces WHERE span_id = '${S1}'`,
    reference: `SELECT CAST(duration_ns AS BIGINT) AS b, CAST(1 AS BOOLEAN) AS t, CAST(2.5 AS DOUBLE) AS d, CAST('a' AS VARCHAR) AS v, CAST(7 AS INT) AS i FROM vigil.traces WHERE ${P} AND span_id = '${S1}'`,
  },
  {
    id: "cast-composite-types",
    tql: "SELECT CAST([1, 2] AS Array(String)) AS a, CAST(('a', 1) AS Tuple(name String, n UInt8)) AS t, CAST(map('k', 1) AS Map(String, UInt64)) AS m, CAST('1.5' AS Decimal(10, 2)) AS dec",
    reference:
      "SELECT CAST([1, 2] AS Array(String)) AS a, CAST(('a', 1) AS Tuple(name String, n UInt8)) AS t, CAST(map('k', 1) AS Map(String, UInt64)) AS m, CAST('1.5' AS Decimal(10, 2)) AS dec",
  },
  {
    id: "conversion-functions",
    tql: `SELECT toString(http_status_code) AS s, toInt64(duration_ms) AS i, toFloat32(0.5) AS f, toUInt64OrZero('x') AS z, toInt32OrNull('12') AS n, toDecimal64(duration_ms, 3) AS d FROM traces WHERE span_id = '${S1}'`,
    reference: `SELECT toString(http_status_code) AS s, toInt64(duration_ms) AS i, toFloat32(0.5) AS f, toUInt64OrZero('x') AS z, toInt32OrNull('12') AS n, toDecimal64(duration_ms, 3) AS d FROM vigil.traces WHERE ${P} AND span_id = '${S1}'`,
  },
  {
    id: "to-number-from-attribute",
    tql: "SELECT span_id, toUInt32OrZero(attributes['attempt']) AS attempt FROM traces ARRAY JOIN events_attributes AS attributes WHERE toUInt32OrZero(attributes['attempt']) >= 1",
    reference: `SELECT span_id, toUInt32OrZero(attributes['attempt']) AS attempt FROM vigil.traces ARRAY JOIN events_attributes AS attributes WHERE ${P} AND toUInt32OrZero(attributes['attempt']) >= 1`,
  },

  // ------------------------------------------------------------------ math and misc functions
  {
    id: "math-functions",
    tql: "SELECT round(3.14159, 2) AS r, floor(2.7) AS f, ceil(2.1) AS c, abs(-5) AS a, sqrt(16) AS s, pow(2, 10) AS p, greatest(1, 5, 3) AS g, least(4, 2) AS l, log10(1000) AS lg, 10 % 3 AS m, intDiv(10, 3) AS d",
    reference:
      "SELECT round(3.14159, 2) AS r, floor(2.7) AS f, ceil(2.1) AS c, abs(-5) AS a, sqrt(16) AS s, pow(2, 10) AS p, greatest(1, 5, 3) AS g, least(4, 2) AS l, log10(1000) AS lg, 10 % 3 AS m, intDiv(10, 3) AS d",
  },
  {
    id: "math-on-aggregates",
    tql: "SELECT service_name, round(sum(duration_ms) / 1000, 3) AS seconds, round(log2(max(duration_ms)), 4) AS lg, round(exp(1), 5) AS e FROM traces GROUP BY service_name",
    reference: `SELECT service_name, round(sum(duration_ms) / 1000, 3) AS seconds, round(log2(max(duration_ms)), 4) AS lg, round(exp(1), 5) AS e FROM vigil.traces WHERE ${P} GROUP BY service_name`,
  },
  {
    id: "number-literal-forms",
    tql: "SELECT 1e3 AS a, 0x1F AS b, 0b101 AS c, .5 AS d, 2.5e-1 AS e, 007 AS f, 1.0 AS g",
    reference: "SELECT 1e3 AS a, 0x1F AS b, 0b101 AS c, .5 AS d, 2.5e-1 AS e, 007 AS f, 1.0 AS g",
  },
  {
    id: "negative-numbers",
    tql: "SELECT -1 AS a, - 2.5 AS b, 3 - -2 AS c, abs(-7) AS d, -(2 + 3) AS e",
    reference: "SELECT -1 AS a, - 2.5 AS b, 3 - -2 AS c, abs(-7) AS d, -(2 + 3) AS e",
  },
  {
    id: "hash-functions",
    tql: "SELECT hex(MD5('abc')) AS md5, CRC32('abc') AS crc, cityHash64('abc') AS city, intHash32(42) AS ih",
    reference:
      "SELECT hex(MD5('abc')) AS md5, CRC32('abc') AS crc, cityHash64('abc') AS city, intHash32(42) AS ih",
  },
  {
    id: "url-functions",
    tql: "SELECT domain(attributes['http.url']) AS d, path(attributes['http.url']) AS p, protocol(attributes['http.url']) AS proto FROM traces WHERE mapContains(attributes, 'http.url')",
    reference: `SELECT domain(attributes['http.url']) AS d, path(attributes['http.url']) AS p, protocol(attributes['http.url']) AS proto FROM vigil.traces WHERE ${P} AND mapContains(attributes, 'http.url')`,
  },
  {
    id: "ip-functions",
    tql: "SELECT toIPv4(attributes['net.peer.ip']) AS ip, isIPv4String(attributes['net.peer.ip']) AS ok, IPv4NumToString(IPv4StringToNum(attributes['net.peer.ip'])) AS back FROM traces WHERE mapContains(attributes, 'net.peer.ip')",
    reference: `SELECT toIPv4(attributes['net.peer.ip']) AS ip, isIPv4String(attributes['net.peer.ip']) AS ok, IPv4NumToString(IPv4StringToNum(attributes['net.peer.ip'])) AS back FROM vigil.traces WHERE ${P} AND mapContains(attributes, 'net.peer.ip')`,
  },
  {
    id: "type-names",
    tql: "SELECT toTypeName(timestamp) AS a, toTypeName(attributes) AS b, toTypeName(count) AS c, toTypeName(is_monotonic) AS d FROM metrics LIMIT 1",
    reference: `SELECT toTypeName(timestamp) AS a, toTypeName(attributes) AS b, toTypeName(count) AS c, toTypeName(is_monotonic) AS d FROM vigil.metrics WHERE ${P} LIMIT 1`,
  },
  {
    id: "format-readable",
    tql: "SELECT formatReadableSize(1048576) AS s, formatReadableQuantity(1234567) AS q, formatReadableTimeDelta(3661) AS t",
    reference:
      "SELECT formatReadableSize(1048576) AS s, formatReadableQuantity(1234567) AS q, formatReadableTimeDelta(3661) AS t",
  },

  // ------------------------------------------------------------------ CTEs and subqueries
  {
    id: "cte-query",
    tql: "WITH errors AS (SELECT trace_id FROM traces WHERE status = 'error') SELECT count(DISTINCT trace_id) AS n FROM errors",
    reference: `WITH errors AS (SELECT trace_id FROM vigil.traces WHERE ${P} AND status = 'error') SELECT count(DISTINCT trace_id) AS n FROM errors`,
    expect: { rows: [[3]] },
  },
  {
    id: "cte-used-twice",
    tql: "WITH per_service AS (SELECT service_name, count() AS n FROM traces GROUP BY service_name) SELECT a.service_name, a.n, b.total FROM per_service AS a CROSS JOIN (SELECT sum(n) AS total FROM per_service) AS b",
    reference: `WITH per_service AS (SELECT service_name, count() AS n FROM vigil.traces WHERE ${P} GROUP BY service_name) SELECT a.service_name, a.n, b.total FROM per_service AS a CROSS JOIN (SELECT sum(n) AS total FROM per_service) AS b`,
  },
  {
    id: "cte-self-join",
    tql: "WITH s AS (SELECT service_name, count() AS n FROM logs GROUP BY service_name) SELECT x.service_name AS a, y.service_name AS b, x.n AS n FROM s AS x INNER JOIN s AS y ON x.n = y.n WHERE x.service_name < y.service_name",
    reference: `WITH s AS (SELECT service_name, count() AS n FROM vigil.logs WHERE ${P} GROUP BY service_name) SELECT x.service_name AS a, y.service_name AS b, x.n AS n FROM s AS x INNER JOIN s AS y ON x.n = y.n WHERE x.service_name < y.service_name`,
  },
  {
    id: "with-expression-number",
    tql: "WITH 1000 AS threshold SELECT count() AS n FROM traces WHERE duration_ms > threshold",
    reference: `WITH 1000 AS threshold SELECT count() AS n FROM vigil.traces WHERE ${P} AND duration_ms > threshold`,
  },
  {
    id: "with-expression-string",
    tql: "WITH 'payments' AS svc SELECT count() AS n FROM logs WHERE service_name = svc",
    reference: `WITH 'payments' AS svc SELECT count() AS n FROM vigil.logs WHERE ${P} AND service_name = svc`,
  },
  {
    id: "with-scalar-subquery",
    tql: "WITH (SELECT max(duration_ms) FROM traces) AS slowest SELECT operation_name, duration_ms FROM traces WHERE duration_ms = slowest",
    reference: `WITH (SELECT max(duration_ms) FROM vigil.traces WHERE ${P}) AS slowest SELECT operation_name, duration_ms FROM vigil.traces WHERE ${P} AND duration_ms = slowest`,
    expect: { rows: [["reindex", 5000]] },
  },
  {
    id: "with-expression-over-columns",
    tql: "WITH duration_ms / 1000 AS seconds SELECT span_id, seconds FROM traces WHERE seconds >= 2",
    reference: `WITH duration_ms / 1000 AS seconds SELECT span_id, seconds FROM vigil.traces WHERE ${P} AND seconds >= 2`,
  },
  {
    id: "multiple-ctes",
    tql: "WITH a AS (SELECT trace_id FROM traces WHERE service_name = 'payments'), b AS (SELECT DISTINCT trace_id FROM logs WHERE level = 'error') SELECT trace_id, count() AS n FROM a WHERE trace_id IN (SELECT trace_id FROM b) GROUP BY trace_id",
    reference: `WITH a AS (SELECT trace_id FROM vigil.traces WHERE ${P} AND service_name = 'payments'), b AS (SELECT DISTINCT trace_id FROM vigil.logs WHERE ${P} AND level = 'error') SELECT trace_id, count() AS n FROM a WHERE trace_id IN (SELECT trace_id FROM b) GROUP BY trace_id`,
  },
  {
    id: "cte-referencing-earlier-cte",
    tql: "WITH slow AS (SELECT trace_id, duration_ms FROM traces WHERE duration_ms > 500), slow_traces AS (SELECT DISTINCT trace_id FROM slow) SELECT count() AS n FROM slow_traces",
    reference: `WITH slow AS (SELECT trace_id, duration_ms FROM vigil.traces WHERE ${P} AND duration_ms > 500), slow_traces AS (SELECT DISTINCT trace_id FROM slow) SELECT count() AS n FROM slow_traces`,
  },
  {
    id: "cte-named-like-a-table",
    tql: "WITH traces AS (SELECT * FROM logs WHERE level = 'fatal') SELECT count() AS n FROM traces",
    reference: `WITH traces AS (SELECT * FROM vigil.logs WHERE ${P} AND level = 'fatal') SELECT count() AS n FROM traces`,
    expect: { rows: [[2]] },
  },
  {
    id: "nested-subqueries-in-from",
    tql: "SELECT service_name, max_ms FROM (SELECT service_name, max(duration_ms) AS max_ms FROM (SELECT service_name, duration_ms FROM traces WHERE status != 'error') GROUP BY service_name) WHERE max_ms > 100",
    reference: `SELECT service_name, max_ms FROM (SELECT service_name, max(duration_ms) AS max_ms FROM (SELECT service_name, duration_ms FROM vigil.traces WHERE ${P} AND status != 'error') GROUP BY service_name) WHERE max_ms > 100`,
  },
  {
    id: "scalar-subquery-in-select",
    tql: "SELECT service_name, count() AS n, round(count() / (SELECT count() FROM traces) * 100, 2) AS pct FROM traces GROUP BY service_name",
    reference: `SELECT service_name, count() AS n, round(count() / (SELECT count() FROM vigil.traces WHERE ${P}) * 100, 2) AS pct FROM vigil.traces WHERE ${P} GROUP BY service_name`,
  },
  {
    id: "scalar-subquery-in-where",
    tql: "SELECT span_id, duration_ms FROM traces WHERE duration_ms > (SELECT avg(duration_ms) * 3 FROM traces)",
    reference: `SELECT span_id, duration_ms FROM vigil.traces WHERE ${P} AND duration_ms > (SELECT avg(duration_ms) * 3 FROM vigil.traces WHERE ${P})`,
  },
  {
    id: "exists-subquery",
    tql: "SELECT count() AS n FROM traces WHERE EXISTS (SELECT 1 FROM logs WHERE level = 'fatal')",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND EXISTS (SELECT 1 FROM vigil.logs WHERE ${P} AND level = 'fatal')`,
    expect: { rows: [[48]] },
  },
  {
    id: "not-exists-sees-only-own-project",
    tql: "SELECT count() AS n FROM traces WHERE NOT EXISTS (SELECT 1 FROM logs WHERE service_name = 'other-svc')",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND NOT EXISTS (SELECT 1 FROM vigil.logs WHERE ${P} AND service_name = 'other-svc')`,
    expect: { rows: [[48]] },
  },
  {
    id: "subquery-alias-columns",
    tql: "SELECT x.n, x.services FROM (SELECT count() AS n, uniqExact(service_name) AS services FROM metrics) AS x",
    reference: `SELECT x.n, x.services FROM (SELECT count() AS n, uniqExact(service_name) AS services FROM vigil.metrics WHERE ${P}) AS x`,
  },
  {
    id: "subquery-with-order-and-limit",
    tql: "SELECT operation_name FROM (SELECT operation_name, duration_ms FROM traces ORDER BY duration_ms DESC LIMIT 3) ORDER BY operation_name",
    reference: `SELECT operation_name FROM (SELECT operation_name, duration_ms FROM vigil.traces WHERE ${P} ORDER BY duration_ms DESC LIMIT 3) ORDER BY operation_name`,
    ordered: true,
  },

  // ------------------------------------------------------------------ joins
  {
    id: "self-join-parent-child",
    tql: `SELECT p.operation_name AS parent, c.operation_name AS child FROM traces AS c INNER JOIN traces AS p ON c.parent_span_id = p.span_id AND c.trace_id = p.trace_id WHERE c.trace_id = '${T2}'`,
    reference: `SELECT p.operation_name AS parent, c.operation_name AS child FROM ${main("traces")} AS c INNER JOIN ${main("traces")} AS p ON c.parent_span_id = p.span_id AND c.trace_id = p.trace_id WHERE c.trace_id = '${T2}'`,
  },
  {
    id: "self-join-service-edges",
    tql: "SELECT c.service_name AS child_service, p.service_name AS parent_service, count() AS n FROM traces c JOIN traces p ON c.parent_span_id = p.span_id WHERE c.service_name != p.service_name GROUP BY child_service, parent_service",
    reference: `SELECT c.service_name AS child_service, p.service_name AS parent_service, count() AS n FROM ${main("traces")} c JOIN ${main("traces")} p ON c.parent_span_id = p.span_id WHERE c.service_name != p.service_name GROUP BY child_service, parent_service`,
  },
  {
    id: "self-join-grandparent",
    tql: `SELECT c.operation_name AS child, p.operation_name AS parent, g.operation_name AS grandparent FROM traces c JOIN traces p ON c.parent_span_id = p.span_id JOIN traces g ON p.parent_span_id = g.span_id WHERE c.trace_id = '${T2}'`,
    reference: `SELECT c.operation_name AS child, p.operation_name AS parent, g.operation_name AS grandparent FROM ${main("traces")} c JOIN ${main("traces")} p ON c.parent_span_id = p.span_id JOIN ${main("traces")} g ON p.parent_span_id = g.span_id WHERE c.trace_id = '${T2}'`,
  },
  {
    id: "join-traces-logs",
    tql: "SELECT t.trace_id, t.operation_name, l.message FROM traces AS t INNER JOIN logs AS l ON t.span_id = l.span_id AND t.trace_id = l.trace_id WHERE l.level IN ('error', 'fatal')",
    reference: `SELECT t.trace_id, t.operation_name, l.message FROM ${main("traces")} AS t INNER JOIN ${main("logs")} AS l ON t.span_id = l.span_id AND t.trace_id = l.trace_id WHERE l.level IN ('error', 'fatal')`,
  },
  {
    id: "join-traces-logs-by-trace-id",
    tql: "SELECT t.service_name AS service, count() AS pairs FROM traces t JOIN logs l ON t.trace_id = l.trace_id WHERE t.parent_span_id = '' GROUP BY service",
    reference: `SELECT t.service_name AS service, count() AS pairs FROM ${main("traces")} t JOIN ${main("logs")} l ON t.trace_id = l.trace_id WHERE t.parent_span_id = '' GROUP BY service`,
  },
  {
    id: "join-using",
    tql: "SELECT trace_id, count() AS n FROM traces INNER JOIN (SELECT DISTINCT trace_id FROM logs WHERE level = 'warn') AS w USING (trace_id) GROUP BY trace_id",
    reference: `SELECT trace_id, count() AS n FROM ${main("traces")} AS traces INNER JOIN (SELECT DISTINCT trace_id FROM vigil.logs WHERE ${P} AND level = 'warn') AS w USING (trace_id) GROUP BY trace_id`,
  },
  {
    id: "join-using-without-parentheses",
    tql: "SELECT trace_id, span_id, operation_name, message FROM traces INNER JOIN logs USING trace_id, span_id WHERE level = 'info'",
    reference: `SELECT trace_id, span_id, operation_name, message FROM ${main("traces")} AS traces INNER JOIN ${main("logs")} AS logs USING (trace_id, span_id) WHERE level = 'info'`,
  },
  {
    id: "left-join-unmatched-defaults",
    tql: `SELECT t.span_id, l.id FROM traces AS t LEFT JOIN logs AS l ON t.span_id = l.span_id WHERE t.trace_id = '${T5}'`,
    reference: `SELECT t.span_id, l.id FROM ${main("traces")} AS t LEFT JOIN ${main("logs")} AS l ON t.span_id = l.span_id WHERE t.trace_id = '${T5}'`,
  },
  {
    id: "left-outer-join-counts",
    tql: "SELECT t.service_name AS service, countIf(l.id != '') AS with_logs, count() AS joined_rows FROM traces t LEFT OUTER JOIN logs l ON t.span_id = l.span_id GROUP BY service",
    reference: `SELECT t.service_name AS service, countIf(l.id != '') AS with_logs, count() AS joined_rows FROM ${main("traces")} t LEFT OUTER JOIN ${main("logs")} l ON t.span_id = l.span_id GROUP BY service`,
  },
  {
    id: "right-join",
    tql: "SELECT l.id, t.operation_name FROM traces AS t RIGHT JOIN logs AS l ON t.span_id = l.span_id WHERE l.service_name = 'payments'",
    reference: `SELECT l.id, t.operation_name FROM ${main("traces")} AS t RIGHT JOIN ${main("logs")} AS l ON t.span_id = l.span_id WHERE l.service_name = 'payments'`,
  },
  {
    id: "full-outer-join",
    tql: "SELECT a.service_name AS traced, b.service_name AS ai FROM (SELECT DISTINCT service_name FROM traces) AS a FULL OUTER JOIN (SELECT DISTINCT service_name FROM ai_spans) AS b ON a.service_name = b.service_name",
    reference: `SELECT a.service_name AS traced, b.service_name AS ai FROM (SELECT DISTINCT service_name FROM vigil.traces WHERE ${P}) AS a FULL OUTER JOIN (SELECT DISTINCT service_name FROM vigil.ai_spans WHERE ${P}) AS b ON a.service_name = b.service_name`,
  },
  {
    id: "full-join-ids",
    tql: "SELECT t.span_id AS traced, a.span_id AS ai FROM traces AS t FULL JOIN ai_spans AS a ON t.span_id = a.span_id WHERE t.trace_id = a.trace_id OR t.span_id = '' OR a.span_id = ''",
    reference: `SELECT t.span_id AS traced, a.span_id AS ai FROM ${main("traces")} AS t FULL JOIN ${main("ai_spans")} AS a ON t.span_id = a.span_id WHERE t.trace_id = a.trace_id OR t.span_id = '' OR a.span_id = ''`,
  },
  {
    id: "cross-join-small",
    tql: "SELECT a.level, b.provider FROM (SELECT DISTINCT level FROM logs WHERE level IN ('error', 'fatal')) AS a CROSS JOIN (SELECT DISTINCT provider FROM ai_spans WHERE provider != '') AS b",
    reference: `SELECT a.level, b.provider FROM (SELECT DISTINCT level FROM vigil.logs WHERE ${P} AND level IN ('error', 'fatal')) AS a CROSS JOIN (SELECT DISTINCT provider FROM vigil.ai_spans WHERE ${P} AND provider != '') AS b`,
  },
  {
    id: "comma-join",
    tql: "SELECT count() AS n FROM (SELECT DISTINCT level FROM logs) AS a, (SELECT DISTINCT status FROM traces) AS b",
    reference: `SELECT count() AS n FROM (SELECT DISTINCT level FROM vigil.logs WHERE ${P}) AS a, (SELECT DISTINCT status FROM vigil.traces WHERE ${P}) AS b`,
    expect: { rows: [[15]] },
  },
  {
    id: "comma-join-tables-with-where",
    tql: "SELECT e.fingerprint, t.operation_name FROM error_groups e, traces t WHERE e.sample_span_id = t.span_id AND e.status = 'active'",
    reference: `SELECT e.fingerprint, t.operation_name FROM ${main("error_groups")} e, ${main("traces")} t WHERE e.sample_span_id = t.span_id AND e.status = 'active'`,
  },
  {
    id: "join-ai-spans-traces",
    tql: "SELECT a.request_model, a.total_tokens, t.operation_name, t.duration_ms FROM ai_spans AS a INNER JOIN traces AS t ON a.span_id = t.span_id AND a.trace_id = t.trace_id",
    reference: `SELECT a.request_model, a.total_tokens, t.operation_name, t.duration_ms FROM ${main("ai_spans")} AS a INNER JOIN ${main("traces")} AS t ON a.span_id = t.span_id AND a.trace_id = t.trace_id`,
  },
  {
    id: "join-error-groups-traces",
    tql: "SELECT e.fingerprint, e.version, t.operation_name FROM error_groups AS e INNER JOIN traces AS t ON e.sample_span_id = t.span_id",
    reference: `SELECT e.fingerprint, e.version, t.operation_name FROM ${main("error_groups")} AS e INNER JOIN ${main("traces")} AS t ON e.sample_span_id = t.span_id`,
  },
  {
    id: "join-three-tables",
    tql: "SELECT e.fingerprint, count() AS n FROM error_groups e INNER JOIN traces t ON t.trace_id = e.sample_trace_id INNER JOIN logs l ON l.span_id = t.span_id GROUP BY e.fingerprint",
    reference: `SELECT e.fingerprint, count() AS n FROM ${main("error_groups")} e INNER JOIN ${main("traces")} t ON t.trace_id = e.sample_trace_id INNER JOIN ${main("logs")} l ON l.span_id = t.span_id GROUP BY e.fingerprint`,
  },
  {
    id: "semi-join",
    tql: "SELECT t.span_id FROM traces t SEMI LEFT JOIN logs l ON t.span_id = l.span_id WHERE t.service_name = 'payments'",
    reference: `SELECT t.span_id FROM ${main("traces")} t SEMI LEFT JOIN ${main("logs")} l ON t.span_id = l.span_id WHERE t.service_name = 'payments'`,
  },
  {
    id: "anti-join",
    tql: "SELECT t.operation_name FROM traces t ANTI LEFT JOIN logs l ON t.span_id = l.span_id",
    reference: `SELECT t.operation_name FROM ${main("traces")} t ANTI LEFT JOIN ${main("logs")} l ON t.span_id = l.span_id`,
  },
  {
    id: "asof-join",
    tql: `SELECT l.id, t.span_id FROM logs l ASOF LEFT JOIN traces t ON l.trace_id = t.trace_id AND l.timestamp >= t.timestamp WHERE l.trace_id = '${T1}'`,
    reference: `SELECT l.id, t.span_id FROM ${main("logs")} l ASOF LEFT JOIN ${main("traces")} t ON l.trace_id = t.trace_id AND l.timestamp >= t.timestamp WHERE l.trace_id = '${T1}'`,
  },
  {
    id: "join-decoy-trace-id-stays-out",
    tql: `SELECT t.service_name, l.service_name AS log_service, l.message FROM traces t INNER JOIN logs l ON t.trace_id = l.trace_id WHERE t.trace_id = '${T1}' AND t.parent_span_id = ''`,
    reference: `SELECT t.service_name, l.service_name AS log_service, l.message FROM ${main("traces")} t INNER JOIN ${main("logs")} l ON t.trace_id = l.trace_id WHERE t.trace_id = '${T1}' AND t.parent_span_id = ''`,
  },
  {
    id: "join-subquery-with-aggregate",
    tql: "SELECT s.service_name, s.spans, coalesce(l.logs, 0) AS logs FROM (SELECT service_name, count() AS spans FROM traces GROUP BY service_name) AS s LEFT JOIN (SELECT service_name, count() AS logs FROM logs GROUP BY service_name) AS l ON s.service_name = l.service_name",
    reference: `SELECT s.service_name, s.spans, coalesce(l.logs, 0) AS logs FROM (SELECT service_name, count() AS spans FROM vigil.traces WHERE ${P} GROUP BY service_name) AS s LEFT JOIN (SELECT service_name, count() AS logs FROM vigil.logs WHERE ${P} GROUP BY service_name) AS l ON s.service_name = l.service_name`,
  },

  // ------------------------------------------------------------------ UNION
  {
    id: "union-all",
    tql: "SELECT service_name FROM traces WHERE status = 'error' UNION ALL SELECT service_name FROM logs WHERE level = 'error'",
    reference: `SELECT service_name FROM vigil.traces WHERE ${P} AND status = 'error' UNION ALL SELECT service_name FROM vigil.logs WHERE ${P} AND level = 'error'`,
  },
  {
    id: "union-distinct",
    tql: "SELECT service_name FROM traces WHERE status = 'error' UNION DISTINCT SELECT service_name FROM logs WHERE level = 'error'",
    reference: `SELECT service_name FROM vigil.traces WHERE ${P} AND status = 'error' UNION DISTINCT SELECT service_name FROM vigil.logs WHERE ${P} AND level = 'error'`,
  },
  {
    id: "union-all-three-tables",
    tql: "SELECT 'traces' AS source_table, count() AS n FROM traces UNION ALL SELECT 'logs', count() FROM logs UNION ALL SELECT 'metrics', count() FROM metrics",
    reference: `SELECT 'traces' AS source_table, count() AS n FROM vigil.traces WHERE ${P} UNION ALL SELECT 'logs', count() FROM vigil.logs WHERE ${P} UNION ALL SELECT 'metrics', count() FROM vigil.metrics WHERE ${P}`,
    expect: {
      rows: [
        ["logs", 42],
        ["metrics", 20],
        ["traces", 48],
      ],
    },
  },
  {
    id: "union-parenthesized-branches",
    tql: "(SELECT id FROM logs ORDER BY timestamp LIMIT 2) UNION ALL (SELECT id FROM logs ORDER BY timestamp DESC LIMIT 2)",
    reference: `(SELECT id FROM vigil.logs WHERE ${P} ORDER BY timestamp LIMIT 2) UNION ALL (SELECT id FROM vigil.logs WHERE ${P} ORDER BY timestamp DESC LIMIT 2)`,
    expect: { rows: [["log_0001"], ["log_0002"], ["log_0041"], ["log_0042"]] },
  },
  {
    id: "union-inside-subquery-ordered",
    tql: "SELECT name, n FROM (SELECT 'ai' AS name, count() AS n FROM ai_spans UNION ALL SELECT 'http', count() FROM http_requests UNION ALL SELECT 'errors', count() FROM error_groups) ORDER BY name",
    reference: `SELECT name, n FROM (SELECT 'ai' AS name, count() AS n FROM vigil.ai_spans WHERE ${P} UNION ALL SELECT 'http', count() FROM vigil.http_requests WHERE ${P} UNION ALL SELECT 'errors', count() FROM vigil.error_groups FINAL WHERE ${P}) ORDER BY name`,
    ordered: true,
    expect: {
      rows: [
        ["ai", 14],
        ["errors", 7],
        ["http", 16],
      ],
    },
  },
  {
    id: "union-mixed-modes",
    tql: "SELECT level AS v FROM logs WHERE service_name = 'payments' UNION DISTINCT SELECT status FROM traces WHERE service_name = 'payments' UNION ALL SELECT 'info'",
    reference: `SELECT level AS v FROM vigil.logs WHERE ${P} AND service_name = 'payments' UNION DISTINCT SELECT status FROM vigil.traces WHERE ${P} AND service_name = 'payments' UNION ALL SELECT 'info'`,
  },
  {
    id: "union-in-cte",
    tql: "WITH ids AS (SELECT trace_id FROM ai_spans UNION DISTINCT SELECT trace_id FROM logs WHERE level = 'error') SELECT count() AS n FROM ids",
    reference: `WITH ids AS (SELECT trace_id FROM vigil.ai_spans WHERE ${P} UNION DISTINCT SELECT trace_id FROM vigil.logs WHERE ${P} AND level = 'error') SELECT count() AS n FROM ids`,
  },

  // ------------------------------------------------------------------ error_groups (FINAL)
  {
    id: "error-groups-current-versions",
    tql: "SELECT fingerprint, version, occurrence_count, status, severity, services FROM error_groups ORDER BY fingerprint",
    reference: `SELECT fingerprint, version, occurrence_count, status, severity, services FROM vigil.error_groups FINAL WHERE ${P} ORDER BY fingerprint`,
    ordered: true,
    expect: {
      rows: [
        ["fp-a1", 3, 7, "resolved", "high", ["checkout", "payments"]],
        ["fp-b2", 2, 3, "active", "high", ["payments"]],
        ["fp-c3", 1, 1, "active", "critical", ["web-frontend"]],
        ["fp-d4", 2, 2, "active", "critical", ["inventory"]],
        ["fp-e5", 1, 1, "active", "low", ["inventory"]],
        ["fp-f6", 3, 2, "active", "high", ["payments"]],
        ["fp-g7", "1152921504606846976", 1, "active", "critical", ["inventory"]],
      ],
    },
  },
  {
    id: "error-groups-active",
    tql: "SELECT fingerprint, message FROM error_groups WHERE status = 'active'",
    reference: `SELECT fingerprint, message FROM vigil.error_groups FINAL WHERE ${P} AND status = 'active'`,
  },
  {
    id: "error-groups-totals",
    tql: "SELECT sum(occurrence_count) AS total, count() AS groups, max(version) AS max_version FROM error_groups",
    reference: `SELECT sum(occurrence_count) AS total, count() AS groups, max(version) AS max_version FROM vigil.error_groups FINAL WHERE ${P}`,
    expect: { rows: [[17, 7, "1152921504606846976"]] },
  },
  {
    id: "error-groups-by-service",
    tql: "SELECT arrayJoin(services) AS service, count() AS groups, sum(occurrence_count) AS occurrences FROM error_groups GROUP BY service",
    reference: `SELECT arrayJoin(services) AS service, count() AS groups, sum(occurrence_count) AS occurrences FROM vigil.error_groups FINAL WHERE ${P} GROUP BY service`,
  },
  {
    id: "error-groups-resolved-at",
    tql: "SELECT fingerprint, resolved_at, status FROM error_groups WHERE resolved_at > toDateTime64('1970-01-02 00:00:00', 3, 'UTC')",
    reference: `SELECT fingerprint, resolved_at, status FROM vigil.error_groups FINAL WHERE ${P} AND resolved_at > toDateTime64('1970-01-02 00:00:00', 3, 'UTC')`,
  },
  {
    id: "error-groups-by-severity-and-source",
    tql: "SELECT severity, source, count() AS n FROM error_groups GROUP BY severity, source",
    reference: `SELECT severity, source, count() AS n FROM vigil.error_groups FINAL WHERE ${P} GROUP BY severity, source`,
  },
  {
    id: "error-groups-stacktrace-text",
    tql: "SELECT fingerprint, exception_type, culprit, position(stacktrace, '\\n') > 0 AS multiline FROM error_groups WHERE stacktrace != ''",
    reference: `SELECT fingerprint, exception_type, culprit, position(stacktrace, '\\n') > 0 AS multiline FROM vigil.error_groups FINAL WHERE ${P} AND stacktrace != ''`,
  },

  // ------------------------------------------------------------------ metrics
  {
    id: "metrics-gauge-per-service",
    tql: "SELECT service_name, round(avg(value), 4) AS avg_cpu, max(value) AS peak FROM metrics WHERE metric_name = 'system.cpu.utilization' GROUP BY service_name",
    reference: `SELECT service_name, round(avg(value), 4) AS avg_cpu, max(value) AS peak FROM vigil.metrics WHERE ${P} AND metric_name = 'system.cpu.utilization' GROUP BY service_name`,
  },
  {
    id: "metrics-cumulative-increase",
    tql: "SELECT service_name, max(value) - min(value) AS increase, argMax(value, timestamp) AS latest FROM metrics WHERE metric_name = 'http.server.request.count' GROUP BY service_name",
    reference: `SELECT service_name, max(value) - min(value) AS increase, argMax(value, timestamp) AS latest FROM vigil.metrics WHERE ${P} AND metric_name = 'http.server.request.count' GROUP BY service_name`,
  },
  {
    id: "metrics-columns-named-like-functions",
    tql: "SELECT service_name, sum(count) AS n, round(sum(sum) / sum(count), 3) AS mean, max(max) AS mx, min(min) AS mn FROM metrics WHERE metric_type = 'histogram' GROUP BY service_name",
    reference: `SELECT service_name, sum(count) AS n, round(sum(sum) / sum(count), 3) AS mean, max(max) AS mx, min(min) AS mn FROM vigil.metrics WHERE ${P} AND metric_type = 'histogram' GROUP BY service_name`,
  },
  {
    id: "metrics-exponential-histogram",
    tql: "SELECT exp_scale, exp_zero_count, exp_positive_offset, exp_positive_bucket_counts, exp_negative_bucket_counts FROM metrics WHERE metric_type = 'exponential_histogram'",
    reference: `SELECT exp_scale, exp_zero_count, exp_positive_offset, exp_positive_bucket_counts, exp_negative_bucket_counts FROM vigil.metrics WHERE ${P} AND metric_type = 'exponential_histogram'`,
    expect: { rows: [[2, 1, 3, [1, 4, 2], []]] },
  },
  {
    id: "metrics-types",
    tql: "SELECT metric_type, aggregation_temporality, count() AS n FROM metrics GROUP BY metric_type, aggregation_temporality",
    reference: `SELECT metric_type, aggregation_temporality, count() AS n FROM vigil.metrics WHERE ${P} GROUP BY metric_type, aggregation_temporality`,
  },
  {
    id: "metrics-negative-delta",
    tql: "SELECT timestamp, value FROM metrics WHERE metric_name = 'jobs.pending' AND value < 0",
    reference: `SELECT timestamp, value FROM vigil.metrics WHERE ${P} AND metric_name = 'jobs.pending' AND value < 0`,
  },
  {
    id: "metrics-start-timestamps",
    tql: "SELECT metric_name, dateDiff('second', start_timestamp, timestamp) AS window_s, count() AS n FROM metrics GROUP BY metric_name, window_s",
    reference: `SELECT metric_name, dateDiff('second', start_timestamp, timestamp) AS window_s, count() AS n FROM vigil.metrics WHERE ${P} GROUP BY metric_name, window_s`,
  },

  // ------------------------------------------------------------------ http_requests
  {
    id: "http-rollup-by-service",
    tql: "SELECT service_name, sum(request_count) AS requests, sum(error_count) AS errors, min(duration_min_ms) AS min_ms, max(duration_max_ms) AS max_ms, round(sum(duration_sum_ms) / sum(request_count), 3) AS avg_ms FROM http_requests GROUP BY service_name ORDER BY requests DESC",
    reference: `SELECT service_name, sum(request_count) AS requests, sum(error_count) AS errors, min(duration_min_ms) AS min_ms, max(duration_max_ms) AS max_ms, round(sum(duration_sum_ms) / sum(request_count), 3) AS avg_ms FROM vigil.http_requests WHERE ${P} GROUP BY service_name ORDER BY requests DESC`,
    ordered: true,
  },
  {
    id: "http-status-classes",
    tql: "SELECT intDiv(status_code, 100) AS class, sum(request_count) AS n FROM http_requests GROUP BY class ORDER BY class",
    reference: `SELECT intDiv(status_code, 100) AS class, sum(request_count) AS n FROM vigil.http_requests WHERE ${P} GROUP BY class ORDER BY class`,
    ordered: true,
    expect: {
      rows: [
        [2, 92],
        [4, 1],
        [5, 9],
      ],
    },
  },
  {
    id: "http-per-minute-window",
    tql: "SELECT timestamp, sum(request_count) AS requests, sum(error_count) AS errors FROM http_requests WHERE timestamp >= '2026-03-01 10:00:00' AND timestamp < '2026-03-01 10:03:00' GROUP BY timestamp ORDER BY timestamp",
    reference: `SELECT timestamp, sum(request_count) AS requests, sum(error_count) AS errors FROM vigil.http_requests WHERE ${P} AND timestamp >= '2026-03-01 10:00:00' AND timestamp < '2026-03-01 10:03:00' GROUP BY timestamp ORDER BY timestamp`,
    ordered: true,
  },
  {
    id: "http-error-rate-having",
    tql: "SELECT service_name, route, round(sum(error_count) / sum(request_count), 4) AS rate FROM http_requests GROUP BY service_name, route HAVING rate > 0",
    reference: `SELECT service_name, route, round(sum(error_count) / sum(request_count), 4) AS rate FROM vigil.http_requests WHERE ${P} GROUP BY service_name, route HAVING rate > 0`,
  },
  {
    id: "http-same-key-rows-merge",
    tql: "SELECT timestamp, method, route, status_code, count() AS rows, sum(request_count) AS requests FROM http_requests GROUP BY timestamp, method, route, status_code HAVING rows > 1",
    reference: `SELECT timestamp, method, route, status_code, count() AS rows, sum(request_count) AS requests FROM vigil.http_requests WHERE ${P} GROUP BY timestamp, method, route, status_code HAVING rows > 1`,
  },

  // ------------------------------------------------------------------ ai_spans
  {
    id: "ai-by-model",
    tql: "SELECT request_model, count() AS calls, sum(input_tokens) AS input, sum(output_tokens) AS output FROM ai_spans WHERE request_model != '' GROUP BY request_model",
    reference: `SELECT request_model, count() AS calls, sum(input_tokens) AS input, sum(output_tokens) AS output FROM vigil.ai_spans WHERE ${P} AND request_model != '' GROUP BY request_model`,
  },
  {
    id: "ai-cache-tokens",
    tql: "SELECT provider, sum(cache_read_tokens) AS cache_read, sum(cache_creation_tokens) AS cache_created FROM ai_spans GROUP BY provider",
    reference: `SELECT provider, sum(cache_read_tokens) AS cache_read, sum(cache_creation_tokens) AS cache_created FROM vigil.ai_spans WHERE ${P} GROUP BY provider`,
  },
  {
    id: "ai-finish-reasons",
    tql: "SELECT reason, count() AS n FROM ai_spans ARRAY JOIN finish_reasons AS reason GROUP BY reason",
    reference: `SELECT reason, count() AS n FROM vigil.ai_spans ARRAY JOIN finish_reasons AS reason WHERE ${P} GROUP BY reason`,
  },
  {
    id: "ai-agent-children",
    tql: "SELECT c.operation_name AS child, p.operation_name AS parent FROM ai_spans c JOIN ai_spans p ON c.parent_span_id = p.span_id",
    reference: `SELECT c.operation_name AS child, p.operation_name AS parent FROM ${main("ai_spans")} c JOIN ${main("ai_spans")} p ON c.parent_span_id = p.span_id`,
  },
  {
    id: "ai-cost-per-user",
    tql: "SELECT user_id, round(sum(cost_usd), 6) AS cost FROM ai_spans WHERE user_id != '' GROUP BY user_id ORDER BY cost DESC",
    reference: `SELECT user_id, round(sum(cost_usd), 6) AS cost FROM vigil.ai_spans WHERE ${P} AND user_id != '' GROUP BY user_id ORDER BY cost DESC`,
    ordered: true,
  },
  {
    id: "ai-uint64-arithmetic",
    tql: "SELECT sum(total_tokens) - sum(input_tokens) AS out_tokens, sum(output_tokens) AS check_tokens, max(input_tokens) - min(input_tokens) AS spread FROM ai_spans",
    reference: `SELECT sum(total_tokens) - sum(input_tokens) AS out_tokens, sum(output_tokens) AS check_tokens, max(input_tokens) - min(input_tokens) AS spread FROM vigil.ai_spans WHERE ${P}`,
  },
  {
    id: "ai-errors",
    tql: "SELECT operation_name, status_message FROM ai_spans WHERE status = 'error' ORDER BY timestamp",
    reference: `SELECT operation_name, status_message FROM vigil.ai_spans WHERE ${P} AND status = 'error' ORDER BY timestamp`,
    ordered: true,
    expect: {
      rows: [
        ["chat gpt-4o", "rate limit exceeded"],
        ["chat claude-sonnet-4", "overloaded"],
      ],
    },
  },

  // ------------------------------------------------------------------ traces and logs, misc columns
  {
    id: "sessions-and-users",
    tql: "SELECT session_id, uniqExact(trace_id) AS traces, any(user_id) AS user FROM traces WHERE session_id != '' GROUP BY session_id",
    reference: `SELECT session_id, uniqExact(trace_id) AS traces, any(user_id) AS user FROM vigil.traces WHERE ${P} AND session_id != '' GROUP BY session_id`,
  },
  {
    id: "source-split",
    tql: "SELECT source, count() AS n, uniqExact(service_name) AS services FROM traces GROUP BY source",
    reference: `SELECT source, count() AS n, uniqExact(service_name) AS services FROM vigil.traces WHERE ${P} GROUP BY source`,
  },
  {
    id: "scopes",
    tql: "SELECT scope_name, scope_version, count() AS n FROM logs GROUP BY scope_name, scope_version",
    reference: `SELECT scope_name, scope_version, count() AS n FROM vigil.logs WHERE ${P} GROUP BY scope_name, scope_version`,
  },
  {
    id: "service-versions",
    tql: "SELECT DISTINCT service_name, service_version FROM traces",
    reference: `SELECT DISTINCT service_name, service_version FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "severity-and-flags",
    tql: "SELECT severity_text, severity_number, trace_flags, count() AS n FROM logs GROUP BY severity_text, severity_number, trace_flags",
    reference: `SELECT severity_text, severity_number, trace_flags, count() AS n FROM vigil.logs WHERE ${P} GROUP BY severity_text, severity_number, trace_flags`,
  },
  {
    id: "trace-state-and-kind",
    tql: "SELECT span_kind, countIf(trace_state != '') AS with_state, count() AS n FROM traces GROUP BY span_kind",
    reference: `SELECT span_kind, countIf(trace_state != '') AS with_state, count() AS n FROM vigil.traces WHERE ${P} GROUP BY span_kind`,
  },
  {
    id: "http-spans-detail",
    tql: "SELECT http_method, http_route, http_target, http_status_code FROM traces WHERE http_method != '' AND http_route = ''",
    reference: `SELECT http_method, http_route, http_target, http_status_code FROM vigil.traces WHERE ${P} AND http_method != '' AND http_route = ''`,
  },
  {
    id: "latest-errors",
    tql: "SELECT timestamp, service_name, operation_name, trace_id FROM traces WHERE status = 'error' ORDER BY timestamp DESC LIMIT 5",
    reference: `SELECT timestamp, service_name, operation_name, trace_id FROM vigil.traces WHERE ${P} AND status = 'error' ORDER BY timestamp DESC LIMIT 5`,
    ordered: true,
  },

  // ------------------------------------------------------------------ more syntax and semantics
  {
    id: "operator-precedence-mix",
    tql: "SELECT 1 < 2 = 1 AS a, 5 - 3 - 1 AS b, 2 * 3 / 4 AS c, 1 + 2 || 'x' AS d, 1 BETWEEN 0 AND 2 AND 1 = 1 AS e, 5 BETWEEN 1 + 1 AND 2 * 3 AS f, NOT 0 + 1 AS g, 1 IN (1, 2) = 1 AS h, true ? 1 : 0 + 10 AS i, false OR true ? 'y' : 'n' AS j, NULL IS NULL = 1 AS k",
    reference:
      "SELECT 1 < 2 = 1 AS a, 5 - 3 - 1 AS b, 2 * 3 / 4 AS c, 1 + 2 || 'x' AS d, 1 BETWEEN 0 AND 2 AND 1 = 1 AS e, 5 BETWEEN 1 + 1 AND 2 * 3 AS f, NOT 0 + 1 AS g, 1 IN (1, 2) = 1 AS h, true ? 1 : 0 + 10 AS i, false OR true ? 'y' : 'n' AS j, NULL IS NULL = 1 AS k",
  },
  {
    id: "negated-parenthesized-literal-type",
    tql: "SELECT toTypeName(-(1)) AS t, -(1) AS v, toTypeName(-1) AS literal",
    reference: "SELECT toTypeName(-(1)) AS t, -(1) AS v, toTypeName(-1) AS literal",
  },
  {
    id: "big-number-literals",
    tql: "SELECT 18446744073709551616 AS over_uint64, 0xFFFFFFFFFFFFFFFFFF AS big_hex, -9223372036854775808 AS int64_min, 1. AS one, 1.e2 AS hundred",
    reference:
      "SELECT 18446744073709551616 AS over_uint64, 0xFFFFFFFFFFFFFFFFFF AS big_hex, -9223372036854775808 AS int64_min, 1. AS one, 1.e2 AS hundred",
  },
  {
    id: "float-infinities-are-null",
    tql: "SELECT 1 / 0 AS inf, -1 / 0 AS ninf, 0 / 0 AS nan, 1e308 * 10 AS overflow, isNaN(0 / 0) AS is_nan",
    reference:
      "SELECT 1 / 0 AS inf, -1 / 0 AS ninf, 0 / 0 AS nan, 1e308 * 10 AS overflow, isNaN(0 / 0) AS is_nan",
    expect: { rows: [[null, null, null, null, 1]] },
  },
  {
    id: "interval-values",
    tql: "SELECT INTERVAL 2 DAY AS i, toIntervalHour(3) AS h, INTERVAL (1 + 1) MINUTE AS m",
    reference: "SELECT INTERVAL 2 DAY AS i, toIntervalHour(3) AS h, INTERVAL (1 + 1) MINUTE AS m",
  },
  {
    id: "decimal-and-special-types",
    tql: "SELECT toDecimal64(1.5, 2) AS d64, toDecimal128(2.5, 3) AS d128, toUUID('00000000-0000-0000-0000-000000000001') AS u, toIPv6('::1') AS ip6, toDate32('2026-01-01') AS d32, toFixedString('ab', 3) AS fs, JSONType('{\"a\":1}', 'a') AS enum",
    reference:
      "SELECT toDecimal64(1.5, 2) AS d64, toDecimal128(2.5, 3) AS d128, toUUID('00000000-0000-0000-0000-000000000001') AS u, toIPv6('::1') AS ip6, toDate32('2026-01-01') AS d32, toFixedString('ab', 3) AS fs, JSONType('{\"a\":1}', 'a') AS enum",
  },
  {
    id: "named-tuples-and-untuple",
    tql: "SELECT tupleElement(CAST(('a', 1) AS Tuple(name String, n UInt8)), 'name') AS name, CAST(('a', 1) AS Tuple(name String, n UInt8)).2 AS n, untuple((1, 'x'))",
    reference:
      "SELECT tupleElement(CAST(('a', 1) AS Tuple(name String, n UInt8)), 'name') AS name, CAST(('a', 1) AS Tuple(name String, n UInt8)).2 AS n, untuple((1, 'x'))",
  },
  {
    id: "time-zones",
    tql: `SELECT toDateTime(timestamp, 'Europe/Berlin') AS berlin, formatDateTime(timestamp, '%F %T', 'Asia/Tokyo') AS tokyo, toTimezone(timestamp, 'America/New_York') AS ny, CAST(timestamp, 'DateTime(''Europe/Paris'')') AS paris FROM traces WHERE span_id = '${S1}'`,
    reference: `SELECT toDateTime(timestamp, 'Europe/Berlin') AS berlin, formatDateTime(timestamp, '%F %T', 'Asia/Tokyo') AS tokyo, toTimezone(timestamp, 'America/New_York') AS ny, CAST(timestamp, 'DateTime(''Europe/Paris'')') AS paris FROM vigil.traces WHERE ${P} AND span_id = '${S1}'`,
  },
  {
    id: "star-over-join",
    tql: "SELECT * FROM ai_spans a INNER JOIN traces t ON a.span_id = t.span_id",
    reference: `SELECT * FROM ${main("ai_spans")} a INNER JOIN ${main("traces")} t ON a.span_id = t.span_id`,
  },
  {
    id: "table-star-of-subquery-and-cte",
    tql: "WITH c AS (SELECT level, count() AS n FROM logs GROUP BY level) SELECT c.*, s.* FROM c CROSS JOIN (SELECT max(severity_number) AS top FROM logs) AS s",
    reference: `WITH c AS (SELECT level, count() AS n FROM vigil.logs WHERE ${P} GROUP BY level) SELECT c.*, s.* FROM c CROSS JOIN (SELECT max(severity_number) AS top FROM vigil.logs WHERE ${P}) AS s`,
  },
  {
    id: "join-on-with-filter-condition",
    tql: `SELECT a.span_id AS parent, b.span_id AS child FROM traces a JOIN traces b ON a.span_id = b.parent_span_id AND b.duration_ms > 100 WHERE a.trace_id = '${T2}'`,
    reference: `SELECT a.span_id AS parent, b.span_id AS child FROM ${main("traces")} a JOIN ${main("traces")} b ON a.span_id = b.parent_span_id AND b.duration_ms > 100 WHERE a.trace_id = '${T2}'`,
  },
  {
    id: "join-on-with-or",
    tql: "SELECT l.id, count() AS n FROM logs l JOIN traces t ON l.span_id = t.span_id OR l.trace_id = t.parent_span_id GROUP BY l.id",
    reference: `SELECT l.id, count() AS n FROM ${main("logs")} l JOIN ${main("traces")} t ON l.span_id = t.span_id OR l.trace_id = t.parent_span_id GROUP BY l.id`,
  },
  {
    id: "in-subquery-without-from",
    tql: "SELECT count() AS n FROM traces WHERE status IN (SELECT 'error')",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND status IN (SELECT 'error')`,
    expect: { rows: [[9]] },
  },
  {
    id: "order-by-aggregate-not-selected",
    tql: "SELECT service_name FROM traces GROUP BY service_name ORDER BY count() DESC, service_name LIMIT 3",
    reference: `SELECT service_name FROM vigil.traces WHERE ${P} GROUP BY service_name ORDER BY count() DESC, service_name LIMIT 3`,
    ordered: true,
    expect: { rows: [["checkout"], ["inventory"], ["api-gateway"]] },
  },
  {
    id: "array-join-enumerate",
    tql: "SELECT span_id, i, events_name[i] AS name FROM traces ARRAY JOIN arrayEnumerate(events_name) AS i WHERE length(events_name) > 1",
    reference: `SELECT span_id, i, events_name[i] AS name FROM vigil.traces ARRAY JOIN arrayEnumerate(events_name) AS i WHERE ${P} AND length(events_name) > 1`,
  },
  {
    id: "keyword-and-unicode-aliases",
    tql: 'SELECT 1 AS `select`, 2 AS "order", count() AS größe FROM logs',
    // ClickHouse wants non-ASCII names quoted; TQL accepts them bare and quotes them itself.
    reference: `SELECT 1 AS \`select\`, 2 AS "order", count() AS \`größe\` FROM vigil.logs WHERE ${P}`,
  },
  {
    id: "alias-equal-to-column-and-function",
    tql: "SELECT count() AS count, sum(duration_ms) AS duration_ms FROM traces",
    reference: `SELECT count() AS count, sum(duration_ms) AS duration_ms FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "lambda-parameter-shadows-column",
    tql: "SELECT DISTINCT arrayMap(status -> upper(status), [status]) AS shouted FROM traces",
    reference: `SELECT DISTINCT arrayMap(status -> upper(status), [status]) AS shouted FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "cte-inside-subquery-in-from",
    tql: "WITH c AS (SELECT service_name FROM traces WHERE span_kind = 'server') SELECT service_name, count() AS n FROM (SELECT * FROM c) GROUP BY service_name",
    reference: `WITH c AS (SELECT service_name FROM vigil.traces WHERE ${P} AND span_kind = 'server') SELECT service_name, count() AS n FROM (SELECT * FROM c) GROUP BY service_name`,
  },
  {
    id: "correlated-exists",
    tql: "SELECT t.span_id FROM traces t WHERE EXISTS (SELECT 1 FROM logs l WHERE l.span_id = t.span_id AND l.level = 'error')",
    reference: `SELECT t.span_id FROM ${main("traces")} t WHERE EXISTS (SELECT 1 FROM ${main("logs")} l WHERE l.span_id = t.span_id AND l.level = 'error')`,
  },
  {
    id: "correlated-scalar-subquery",
    tql: `SELECT t.span_id, (SELECT count() FROM logs l WHERE l.span_id = t.span_id) AS n FROM traces t WHERE t.trace_id = '${T2}'`,
    reference: `SELECT t.span_id, (SELECT count() FROM ${main("logs")} l WHERE l.span_id = t.span_id) AS n FROM ${main("traces")} t WHERE t.trace_id = '${T2}'`,
  },
  {
    id: "count-distinct-two-columns",
    tql: "SELECT count(DISTINCT service_name, status) AS pairs FROM traces",
    reference: `SELECT count(DISTINCT service_name, status) AS pairs FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "prewhere",
    tql: "SELECT count() AS n FROM traces PREWHERE service_name = 'checkout' WHERE duration_ms > 100",
    reference: `SELECT count() AS n FROM vigil.traces PREWHERE ${P} AND service_name = 'checkout' WHERE duration_ms > 100`,
  },
  {
    id: "select-star-except",
    tql: "SELECT * EXCEPT (stacktrace, services) FROM error_groups",
    reference: `SELECT * EXCEPT (project_id, stacktrace, services) FROM vigil.error_groups FINAL WHERE ${P}`,
  },

  {
    id: "cte-shadows-the-table-it-reads",
    tql: "WITH traces AS (SELECT * FROM traces WHERE status = 'error') SELECT count() AS n, uniqExact(trace_id) AS traces FROM traces",
    reference: `WITH traces AS (SELECT * FROM vigil.traces WHERE ${P} AND status = 'error') SELECT count() AS n, uniqExact(trace_id) AS traces FROM traces`,
    expect: { rows: [[9, 3]] },
  },
  {
    id: "in-one-tuple",
    tql: "SELECT count() AS n FROM traces WHERE (service_name, status) IN (('payments', 'error'))",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND (service_name, status) IN (('payments', 'error'))`,
    expect: { rows: [[2]] },
  },
  {
    id: "nested-boolean-logic",
    tql: "SELECT count() AS n FROM traces WHERE service_name = 'checkout' AND (status = 'ok' OR http_status_code = 0) AND NOT duration_ms > 100",
    reference: `SELECT count() AS n FROM vigil.traces WHERE ${P} AND service_name = 'checkout' AND (status = 'ok' OR http_status_code = 0) AND NOT duration_ms > 100`,
  },
  {
    id: "to-start-of-interval-function-interval",
    tql: "SELECT toStartOfInterval(timestamp, toIntervalMinute(30)) AS bucket, count() AS n FROM logs GROUP BY bucket ORDER BY bucket",
    reference: `SELECT toStartOfInterval(timestamp, toIntervalMinute(30)) AS bucket, count() AS n FROM vigil.logs WHERE ${P} GROUP BY bucket ORDER BY bucket`,
    ordered: true,
  },
  {
    id: "self-comma-join-star",
    tql: `SELECT * FROM traces AS t1, traces AS t2 WHERE t1.span_id = t2.parent_span_id AND t1.trace_id = '${T4}'`,
    reference: `SELECT * FROM ${main("traces")} AS t1, ${main("traces")} AS t2 WHERE t1.span_id = t2.parent_span_id AND t1.trace_id = '${T4}'`,
  },
  {
    id: "join-using-with-alias-on-one-side",
    tql: "SELECT trace_id, count() AS n FROM traces t JOIN logs USING (trace_id) GROUP BY trace_id",
    reference: `SELECT trace_id, count() AS n FROM ${main("traces")} t JOIN ${main("logs")} AS logs USING (trace_id) GROUP BY trace_id`,
  },
  {
    id: "map-and-array-subcolumns",
    tql: `SELECT attributes.keys AS k, attributes.values AS v, events_name.size0 AS n FROM traces WHERE span_id = '${S1}'`,
    reference: `SELECT attributes.keys AS k, attributes.values AS v, events_name.size0 AS n FROM vigil.traces WHERE ${P} AND span_id = '${S1}'`,
  },
  {
    id: "named-tuple-element-by-dot",
    tql: "SELECT CAST(('a', 1) AS Tuple(name String, n UInt8)) AS t, t.name AS name",
    reference: "SELECT CAST(('a', 1) AS Tuple(name String, n UInt8)) AS t, t.name AS name",
  },

  // ------------------------------------------------------------------ row cap and 64-bit integers
  {
    id: "row-cap-array-join-20000",
    tql: "SELECT number FROM (SELECT arrayJoin(range(20000)) AS number)",
    reference: "SELECT count() FROM (SELECT arrayJoin(range(20000)) AS number)",
    check: "rowCount",
    truncated: true,
  },
  {
    id: "row-cap-limit-exactly-10000",
    tql: "SELECT number FROM (SELECT arrayJoin(range(20000)) AS number) LIMIT 10000",
    reference:
      "SELECT count() FROM (SELECT number FROM (SELECT arrayJoin(range(20000)) AS number) LIMIT 10000)",
    check: "rowCount",
  },
  {
    id: "row-cap-limit-10001",
    tql: "SELECT number FROM (SELECT arrayJoin(range(20000)) AS number) ORDER BY number DESC LIMIT 10001",
    reference:
      "SELECT count() FROM (SELECT number FROM (SELECT arrayJoin(range(20000)) AS number) ORDER BY number DESC LIMIT 10001)",
    check: "rowCount",
    truncated: true,
  },
  {
    id: "row-cap-exactly-10000-rows-no-limit",
    tql: "SELECT number FROM (SELECT arrayJoin(range(10000)) AS number)",
    reference: "SELECT count() FROM (SELECT arrayJoin(range(10000)) AS number)",
    check: "rowCount",
  },
  {
    id: "row-cap-cross-join",
    tql: "SELECT a.span_id, b.id FROM traces a CROSS JOIN logs b CROSS JOIN (SELECT arrayJoin(range(5)) AS k) c",
    reference: `SELECT count() FROM ${main("traces")} a CROSS JOIN ${main("logs")} b CROSS JOIN (SELECT arrayJoin(range(5)) AS k) c`,
    check: "rowCount",
    truncated: true,
  },
  {
    id: "row-cap-union",
    tql: "SELECT number FROM (SELECT arrayJoin(range(6000)) AS number) UNION ALL SELECT number FROM (SELECT arrayJoin(range(6000)) AS number)",
    reference: "SELECT 12000",
    check: "rowCount",
    truncated: true,
  },
  {
    id: "row-cap-under-cap",
    tql: "SELECT a.span_id, b.id FROM traces a CROSS JOIN logs b",
    reference: `SELECT count() FROM ${main("traces")} a CROSS JOIN ${main("logs")} b`,
    check: "rowCount",
  },
  {
    id: "row-cap-ordered-first-rows",
    tql: "SELECT number FROM (SELECT arrayJoin(range(20000)) AS number) ORDER BY number DESC LIMIT 3",
    reference:
      "SELECT number FROM (SELECT arrayJoin(range(20000)) AS number) ORDER BY number DESC LIMIT 3",
    ordered: true,
    expect: { rows: [[19999], [19998], [19997]] },
  },
  {
    id: "uint64-max-is-string",
    tql: "SELECT toUInt64(18446744073709551615) AS big",
    reference: "SELECT toUInt64(18446744073709551615) AS big",
    expect: { columns: [{ name: "big", type: "UInt64" }], rows: [["18446744073709551615"]] },
  },
  {
    id: "int64-safe-boundaries",
    tql: "SELECT toInt64(9007199254740991) AS safe, toInt64(9007199254740992) AS unsafe, toInt64(-9007199254740991) AS neg_safe, toInt64(-9007199254740992) AS neg_unsafe",
    reference:
      "SELECT toInt64(9007199254740991) AS safe, toInt64(9007199254740992) AS unsafe, toInt64(-9007199254740991) AS neg_safe, toInt64(-9007199254740992) AS neg_unsafe",
    expect: {
      rows: [[9007199254740991, "9007199254740992", -9007199254740991, "-9007199254740992"]],
    },
  },
  {
    id: "uint64-nested",
    tql: "SELECT [toUInt64(1), toUInt64(18446744073709551615)] AS arr, map('k', toUInt64(18446744073709551615)) AS m, tuple(toInt64(1), toUInt64(9007199254740993)) AS t, CAST(NULL AS Nullable(UInt64)) AS n",
    reference:
      "SELECT [toUInt64(1), toUInt64(18446744073709551615)] AS arr, map('k', toUInt64(18446744073709551615)) AS m, tuple(toInt64(1), toUInt64(9007199254740993)) AS t, CAST(NULL AS Nullable(UInt64)) AS n",
    expect: {
      rows: [
        [[1, "18446744073709551615"], { k: "18446744073709551615" }, [1, "9007199254740993"], null],
      ],
    },
  },
  {
    id: "count-and-sum-are-numbers",
    tql: "SELECT count() AS n, sum(duration_ns) AS total_ns FROM traces",
    reference: `SELECT count() AS n, sum(duration_ns) AS total_ns FROM vigil.traces WHERE ${P}`,
  },
  {
    id: "wide-integers",
    tql: "SELECT toInt128('170141183460469231731687303715884105727') AS i128, toUInt256(12) AS u256, toInt128(-5) AS small",
    reference:
      "SELECT toInt128('170141183460469231731687303715884105727') AS i128, toUInt256(12) AS u256, toInt128(-5) AS small",
    expect: { rows: [["170141183460469231731687303715884105727", 12, -5]] },
  },
  {
    id: "uint64-hash-of-column",
    tql: `SELECT span_id, cityHash64(span_id) AS h, sipHash64(span_id) % 1000 AS bucket FROM traces WHERE trace_id = '${T1}'`,
    reference: `SELECT span_id, cityHash64(span_id) AS h, sipHash64(span_id) % 1000 AS bucket FROM vigil.traces WHERE ${P} AND trace_id = '${T1}'`,
  },
];
