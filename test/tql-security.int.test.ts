/**
 * Hostile TQL over HTTP: an attacker holding project A's key tries to read project B's rows, reach
 * the unguarded tables, run statements other than SELECT, smuggle SQL through comments, quotes and
 * parameter placeholders, and exhaust the engine. Every case is either refused with a helpful
 * problem document (400, or 422 for resource exhaustion) or runs confined to A's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/auth/api-keys.js";
import { systemCtx } from "../src/context.js";
import { createProject } from "../src/projects/projects.js";
import { initialize } from "../src/setup/initialize.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const MAX_EXECUTION_SECONDS = 5;

const A_TRACE = "a".repeat(32);
const B_TRACE = "f00dbabe".repeat(4);
/** Values only project B's rows hold; none may ever reach A's responses. */
const B_MARKERS = [
  "victim-secret-svc",
  "VICTIM-SECRET",
  "victim_secret_metric",
  "victim-secret-model",
  "/victim-secret",
  "fp-victim",
  "VictimError",
  B_TRACE,
];
/** Rows of A's bulk data: enough for cross joins to hit the limits. */
const BULK_ROWS = 2000;

interface Case {
  name: string;
  query: string;
  expect: "rejected" | "confined";
  /** rejected: the detail must match. */
  detail?: RegExp;
  /** rejected: acceptable statuses (default 400). */
  status?: readonly number[];
  /** confined: the exact rows expected (A's data). */
  rows?: unknown[][];
}

const ONLY_SELECT = /Only SELECT is permitted/;
const HIDDEN = /project_id is not available/;
const TABLE_FUNCTION = /Table functions .* are not allowed/;
const DISALLOWED_FUNCTION = /Unknown or disallowed function/;
const QUALIFIED = /cannot be qualified with a database|tables are not accessible from TQL/;
const LIMITS = [422, 400] as const;

const nested = (open: string, inner: string, close: string, depth: number) =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

const CASES: Case[] = [
  // --- Baseline: A's own data is readable.
  {
    name: "baseline: A's span",
    query: `SELECT service_name, operation_name FROM traces WHERE trace_id = '${A_TRACE}'`,
    expect: "confined",
    rows: [["attacker-svc", "GET /attacker"]],
  },
  {
    name: "baseline: every table holds only A's rows",
    query:
      "SELECT (SELECT count() FROM traces), (SELECT count() FROM logs), (SELECT count() FROM metrics), " +
      "(SELECT count() FROM ai_spans), (SELECT count() FROM http_requests), (SELECT count() FROM error_groups)",
    expect: "confined",
    rows: [[BULK_ROWS + 1, BULK_ROWS + 1, 1, 1, 1, 1]],
  },

  // --- Reading B's rows through subqueries, joins, unions, CTEs, IN, scalar subqueries, EXISTS.
  {
    name: "filter on B's service name",
    query: "SELECT count() FROM traces WHERE service_name = 'victim-secret-svc'",
    expect: "confined",
    rows: [[0]],
  },
  {
    name: "nested FROM subqueries",
    query:
      "SELECT * FROM (SELECT * FROM (SELECT service_name FROM traces)) WHERE service_name NOT LIKE 'attacker%'",
    expect: "confined",
    rows: [],
  },
  {
    name: "B's log message by pattern",
    query: "SELECT message FROM logs WHERE message ILIKE '%victim%' OR service_name LIKE 'victim%'",
    expect: "confined",
    rows: [],
  },
  {
    name: "every table, every row, all columns",
    query:
      "SELECT * FROM metrics UNION ALL SELECT * FROM metrics WHERE metric_name = 'victim_secret_metric'",
    expect: "confined",
  },
  { name: "ai_spans, all columns", query: "SELECT * FROM ai_spans", expect: "confined" },
  { name: "http_requests, all columns", query: "SELECT * FROM http_requests", expect: "confined" },
  { name: "error_groups, all columns", query: "SELECT * FROM error_groups", expect: "confined" },
  {
    name: "logs, all columns of non-bulk rows",
    query: "SELECT * FROM logs WHERE service_name != 'attacker-bulk'",
    expect: "confined",
  },
  {
    name: "IN subquery",
    query:
      "SELECT count() FROM logs WHERE message IN (SELECT message FROM logs WHERE message LIKE '%SECRET%')",
    expect: "confined",
    rows: [[0]],
  },
  {
    name: "tuple IN subquery over the same table",
    query:
      "SELECT count() FROM traces WHERE (trace_id, service_name) IN (SELECT trace_id, service_name FROM traces)",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },
  {
    name: "NOT IN subquery",
    query:
      "SELECT service_name FROM traces WHERE service_name NOT IN (SELECT service_name FROM traces WHERE service_name = 'attacker-bulk')",
    expect: "confined",
    rows: [["attacker-svc"]],
  },
  {
    name: "scalar subquery",
    query:
      "SELECT (SELECT groupArray(service_name) FROM traces WHERE service_name != 'attacker-bulk')",
    expect: "confined",
    rows: [[["attacker-svc"]]],
  },
  {
    name: "scalar subquery in WHERE",
    query:
      "SELECT count() FROM logs WHERE message = (SELECT any(message) FROM logs WHERE message LIKE 'VICTIM%')",
    expect: "confined",
    rows: [[0]],
  },
  {
    name: "EXISTS",
    query:
      "SELECT EXISTS (SELECT 1 FROM logs WHERE message LIKE '%VICTIM%'), EXISTS (SELECT 1 FROM logs WHERE message = 'hello from attacker')",
    expect: "confined",
    rows: [[0, 1]],
  },
  {
    name: "INNER JOIN",
    query: `SELECT t.service_name, l.message FROM traces AS t INNER JOIN logs AS l ON t.trace_id = l.trace_id WHERE t.service_name != 'attacker-bulk'`,
    expect: "confined",
    rows: [["attacker-svc", "hello from attacker"]],
  },
  {
    name: "LEFT JOIN",
    query: `SELECT l.message FROM traces AS t LEFT JOIN logs AS l ON t.trace_id = l.trace_id WHERE t.trace_id = '${A_TRACE}'`,
    expect: "confined",
    rows: [["hello from attacker"]],
  },
  {
    name: "RIGHT JOIN",
    query: `SELECT t.operation_name, l.message FROM traces AS t RIGHT JOIN logs AS l ON t.trace_id = l.trace_id WHERE l.service_name != 'attacker-bulk'`,
    expect: "confined",
    rows: [["GET /attacker", "hello from attacker"]],
  },
  {
    name: "FULL OUTER JOIN of two tables on an always-false key",
    query:
      "SELECT DISTINCT m.metric_name, a.request_model FROM metrics AS m FULL OUTER JOIN ai_spans AS a ON m.service_name = a.request_model ORDER BY 1, 2",
    expect: "confined",
    rows: [
      ["", "attacker-model"],
      ["attacker_metric", ""],
    ],
  },
  {
    name: "CROSS JOIN",
    query:
      "SELECT m.metric_name, e.fingerprint, h.route FROM metrics AS m CROSS JOIN error_groups AS e CROSS JOIN http_requests AS h",
    expect: "confined",
    rows: [["attacker_metric", "fp-attacker", "/attacker"]],
  },
  {
    name: "comma join",
    query: "SELECT a.request_model, m.metric_name FROM ai_spans AS a, metrics AS m",
    expect: "confined",
    rows: [["attacker-model", "attacker_metric"]],
  },
  {
    name: "LEFT ANY / SEMI / ANTI joins",
    query:
      "SELECT (SELECT count() FROM traces AS t LEFT ANY JOIN logs AS l USING (trace_id) WHERE l.message LIKE '%VICTIM%'), " +
      `(SELECT count() FROM traces AS t LEFT SEMI JOIN logs AS l USING (trace_id) WHERE t.trace_id = '${B_TRACE}'), ` +
      "(SELECT count() FROM logs AS l LEFT ANTI JOIN traces AS t USING (trace_id) WHERE l.service_name LIKE 'victim%')",
    expect: "confined",
    rows: [[0, 0, 0]],
  },
  {
    name: "self-join",
    query:
      "SELECT count() FROM traces AS a JOIN traces AS b USING (trace_id) WHERE a.service_name = 'victim-secret-svc' OR b.service_name = 'victim-secret-svc'",
    expect: "confined",
    rows: [[0]],
  },
  {
    name: "join to a subquery",
    query: `SELECT s.m FROM traces AS t JOIN (SELECT trace_id, message AS m FROM logs) AS s ON t.trace_id = s.trace_id WHERE t.trace_id IN ('${A_TRACE}', '${B_TRACE}')`,
    expect: "confined",
    rows: [["hello from attacker"]],
  },
  {
    name: "UNION ALL branches",
    query:
      "SELECT service_name FROM traces WHERE service_name != 'attacker-bulk' UNION ALL SELECT message FROM logs WHERE message LIKE '%SECRET%' UNION ALL SELECT metric_name FROM metrics",
    expect: "confined",
  },
  {
    name: "UNION DISTINCT branches",
    query:
      "SELECT service_name FROM traces WHERE service_name = 'attacker-svc' UNION DISTINCT SELECT service_name FROM logs WHERE service_name IN ('attacker-svc', 'victim-secret-svc')",
    expect: "confined",
    rows: [["attacker-svc"]],
  },
  {
    name: "CTE",
    query: "WITH v AS (SELECT * FROM logs) SELECT count() FROM v WHERE message LIKE '%VICTIM%'",
    expect: "confined",
    rows: [[0]],
  },
  {
    name: "CTE named like a table reads the guarded table",
    query:
      "WITH traces AS (SELECT * FROM traces WHERE service_name != 'attacker-bulk') SELECT service_name FROM traces",
    expect: "confined",
    rows: [["attacker-svc"]],
  },
  {
    name: "CTE named like a table shadows it",
    query: "WITH logs AS (SELECT 'shadow' AS message) SELECT message FROM logs",
    expect: "confined",
    rows: [["shadow"]],
  },
  {
    name: "chained CTEs and a CTE used in a nested subquery",
    query:
      "WITH a AS (SELECT * FROM error_groups), b AS (SELECT * FROM a) SELECT (SELECT groupArray(message) FROM b), (SELECT count() FROM (SELECT * FROM b))",
    expect: "confined",
    rows: [[["attacker error"], 1]],
  },
  {
    name: "ARRAY JOIN",
    query: "SELECT s FROM error_groups ARRAY JOIN services AS s",
    expect: "confined",
    rows: [["attacker-svc"]],
  },
  {
    name: "`*` never carries project_id",
    query: "SELECT * FROM (SELECT * FROM traces) LIMIT 1",
    expect: "confined",
  },

  // --- The hidden column in every position.
  {
    name: "project_id in SELECT",
    query: "SELECT project_id FROM traces",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "project_id in WHERE",
    query: "SELECT count() FROM traces WHERE project_id != ''",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "project_id in GROUP BY",
    query: "SELECT count() FROM logs GROUP BY project_id",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "project_id in ORDER BY",
    query: "SELECT service_name FROM traces ORDER BY project_id",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "project_id in HAVING",
    query: "SELECT count() FROM traces HAVING any(project_id) != ''",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "alias AS project_id",
    query: "SELECT service_name AS project_id FROM traces",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "table alias project_id",
    query: "SELECT 1 FROM traces AS project_id",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "t.project_id",
    query: "SELECT t.project_id FROM traces AS t",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "JOIN ON a.project_id = b.project_id",
    query: "SELECT count() FROM traces AS a JOIN logs AS b ON a.project_id = b.project_id",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "USING (project_id)",
    query: "SELECT count() FROM traces AS a JOIN logs AS b USING (project_id)",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "lambda parameter named project_id",
    query: "SELECT arrayMap(project_id -> project_id, [1, 2])",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "project_id inside a CTE",
    query: "WITH x AS (SELECT project_id FROM traces) SELECT * FROM x",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "WITH expression named project_id",
    query: "WITH 'x' AS project_id SELECT project_id",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "CTE named project_id",
    query: "WITH project_id AS (SELECT 1 AS x) SELECT x FROM project_id",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "project_id spelled in double quotes and backticks",
    query: 'SELECT "project_id", `project_id` FROM logs',
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "project_id spelled with an escape",
    query: "SELECT `project\\_id` FROM logs",
    expect: "rejected",
    detail: /project_id is not available|Unknown column/,
  },
  {
    name: "project_id from a subquery whose columns are not known in advance",
    query: "SELECT project_id FROM (SELECT 1 + 1)",
    expect: "rejected",
    detail: HIDDEN,
  },
  {
    name: "project_id in ARRAY JOIN alias",
    query: "SELECT 1 FROM error_groups ARRAY JOIN services AS project_id",
    expect: "rejected",
    detail: HIDDEN,
  },

  // --- Database-qualified and system tables.
  {
    name: "vigil.traces",
    query: "SELECT * FROM vigil.traces",
    expect: "rejected",
    detail: QUALIFIED,
  },
  {
    name: "`vigil`.`traces`",
    query: "SELECT count() FROM `vigil`.`traces`",
    expect: "rejected",
    detail: QUALIFIED,
  },
  {
    name: '"vigil"."logs"',
    query: 'SELECT * FROM "vigil"."logs"',
    expect: "rejected",
    detail: QUALIFIED,
  },
  { name: "default.x", query: "SELECT * FROM default.x", expect: "rejected", detail: QUALIFIED },
  {
    name: "system.tables",
    query: "SELECT * FROM system.tables",
    expect: "rejected",
    detail: QUALIFIED,
  },
  { name: "system.one", query: "SELECT * FROM system.one", expect: "rejected", detail: QUALIFIED },
  {
    name: "INFORMATION_SCHEMA.TABLES",
    query: "SELECT * FROM INFORMATION_SCHEMA.TABLES",
    expect: "rejected",
    detail: QUALIFIED,
  },
  {
    name: "information_schema.columns",
    query: "SELECT * FROM information_schema.columns",
    expect: "rejected",
    detail: QUALIFIED,
  },
  {
    name: "vigil.traces in an IN subquery",
    query: "SELECT count() FROM traces WHERE trace_id IN (SELECT trace_id FROM vigil.traces)",
    expect: "rejected",
    detail: QUALIFIED,
  },
  {
    name: "vigil.logs as a JOIN target",
    query: "SELECT count() FROM traces JOIN vigil.logs USING (trace_id)",
    expect: "rejected",
    detail: QUALIFIED,
  },
  {
    name: "three-part column name",
    query: "SELECT vigil.traces.service_name FROM traces",
    expect: "rejected",
  },
  {
    name: "the internal sessions table",
    query: "SELECT * FROM sessions",
    expect: "rejected",
    detail: /Unknown table 'sessions'/,
  },
  {
    name: "a quoted table name containing a dot",
    query: "SELECT * FROM `vigil.traces`",
    expect: "rejected",
    detail: /Unknown table/,
  },

  // --- Table functions, anywhere a table may appear.
  ...(
    [
      ["numbers", "numbers(10)"],
      ["file", "file('/etc/passwd', 'LineAsString')"],
      ["url", "url('http://127.0.0.1:1/', 'CSV', 'x String')"],
      ["s3", "s3('http://127.0.0.1:1/bucket/x.csv', 'CSV')"],
      ["remote", "remote('127.0.0.1', vigil.traces)"],
      ["remoteSecure", "remoteSecure('127.0.0.1', 'vigil', 'logs')"],
      ["cluster", "cluster('default', vigil.traces)"],
      ["input", "input('x String')"],
      ["generateRandom", "generateRandom('x String')"],
      ["merge", "merge('vigil', '.*')"],
      ["mysql", "mysql('127.0.0.1:3306', 'd', 't', 'u', 'p')"],
      ["postgresql", "postgresql('127.0.0.1:5432', 'd', 't', 'u', 'p')"],
      ["jdbc", "jdbc('jdbc:x', 'd', 't')"],
      ["odbc", "odbc('DSN=x', 'd', 't')"],
      ["hdfs", "hdfs('hdfs://127.0.0.1:9000/x', 'CSV', 'x String')"],
      ["executable", "executable('cat /etc/passwd', 'CSV', 'x String')"],
      ["view", "view(SELECT * FROM vigil.traces)"],
    ] as const
  ).map(
    ([name, call]): Case => ({
      name: `table function ${name}`,
      query: `SELECT * FROM ${call}`,
      expect: "rejected",
      detail: TABLE_FUNCTION,
    }),
  ),
  {
    name: "table function as a JOIN target",
    query: "SELECT count() FROM traces AS t JOIN numbers(10) AS n ON 1 = 1",
    expect: "rejected",
    detail: TABLE_FUNCTION,
  },
  {
    name: "table function in a CTE",
    query: "WITH x AS (SELECT * FROM merge('vigil', 'traces')) SELECT count() FROM x",
    expect: "rejected",
    detail: TABLE_FUNCTION,
  },
  {
    name: "table function in an IN subquery",
    query: "SELECT 1 WHERE 'x' IN (SELECT * FROM remote('127.0.0.1', 'vigil', 'logs'))",
    expect: "rejected",
    detail: TABLE_FUNCTION,
  },

  // --- Scalar functions that reach outside the query.
  ...(
    [
      ["joinGet", "joinGet('vigil.traces', 'service_name', 'x')"],
      ["dictGet", "dictGet('vigil.dict', 'service_name', toUInt64(1))"],
      ["getSetting", "getSetting('max_memory_usage')"],
      ["currentDatabase", "currentDatabase()"],
      ["hostName", "hostName()"],
      ["version", "version()"],
      ["sleep", "sleep(3)"],
      ["sleepEachRow", "sleepEachRow(1)"],
      ["throwIf", "throwIf(1, 'boom')"],
      ["file", "file('/etc/passwd')"],
      ["url", "url('http://127.0.0.1:1/')"],
      ["getMacro", "getMacro('shard')"],
      ["filesystemAvailable", "filesystemAvailable()"],
      ["currentUser", "currentUser()"],
      ["hasColumnInTable", "hasColumnInTable('vigil', 'traces', 'project_id')"],
    ] as const
  ).map(
    ([name, call]): Case => ({
      name: `function ${name}`,
      query: `SELECT ${call}`,
      expect: "rejected",
      detail: DISALLOWED_FUNCTION,
    }),
  ),
  {
    name: "in() with a table name as its set",
    query: "SELECT in('victim-secret-svc', traces) FROM (SELECT 1 + 1)",
    expect: "rejected",
  },
  {
    name: "sleepEachRow in WHERE",
    query: "SELECT count() FROM logs WHERE sleepEachRow(1) = 0",
    expect: "rejected",
    detail: DISALLOWED_FUNCTION,
  },

  {
    name: "in() over an alias named like the database",
    query: "SELECT in('victim-secret-svc', vigil.traces) FROM (SELECT 1 + 1) AS vigil",
    expect: "rejected",
  },
  {
    name: "in() over a CTE named like the database",
    query: "WITH vigil AS (SELECT 1 + 1) SELECT notIn('x', vigil.logs) FROM vigil",
    expect: "rejected",
  },
  {
    name: "in() over system.one through an alias",
    query: "SELECT in(0, system.one) FROM (SELECT 1 + 1) AS system",
    expect: "rejected",
  },
  { name: "COLUMNS matcher", query: "SELECT COLUMNS('.*') FROM traces", expect: "rejected" },
  { name: "FINAL", query: "SELECT count() FROM logs FINAL", expect: "rejected", detail: /FINAL/ },
  {
    name: "SAMPLE",
    query: "SELECT count() FROM logs SAMPLE 0.1",
    expect: "rejected",
    detail: /SAMPLE/,
  },
  {
    name: "virtual columns of the stored table",
    query: "SELECT _part, _partition_id, _table, _database FROM traces",
    expect: "rejected",
    detail: /Unknown column '_part'/,
  },
  {
    name: "WITH RECURSIVE",
    query: "WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r",
    expect: "rejected",
  },
  { name: "window function", query: "SELECT count() OVER () FROM logs", expect: "rejected" },

  // --- IN with a table on the right.
  {
    name: "x IN traces",
    query: "SELECT count() FROM logs WHERE trace_id IN traces",
    expect: "rejected",
    detail: /parenthesized list or subquery after IN/,
  },
  {
    name: "x IN (traces)",
    query: "SELECT count() FROM logs WHERE trace_id IN (traces)",
    expect: "rejected",
    detail: /Unknown column 'traces'/,
  },
  {
    name: "x IN vigil.traces",
    query: "SELECT count() FROM logs WHERE trace_id IN vigil.traces",
    expect: "rejected",
  },
  {
    name: "x NOT IN logs",
    query: "SELECT count() FROM traces WHERE trace_id NOT IN logs",
    expect: "rejected",
  },
  {
    name: "x GLOBAL IN (subquery)",
    query: "SELECT count() FROM traces WHERE trace_id GLOBAL IN (SELECT trace_id FROM logs)",
    expect: "rejected",
  },

  // --- SETTINGS, FORMAT, INTO OUTFILE.
  {
    name: "SETTINGS",
    query: "SELECT count() FROM traces SETTINGS max_execution_time = 1000, readonly = 0",
    expect: "rejected",
    detail: /SETTINGS is not allowed/,
  },
  {
    name: "SETTINGS in a subquery",
    query: "SELECT * FROM (SELECT 1 SETTINGS max_memory_usage = 0)",
    expect: "rejected",
  },
  {
    name: "FORMAT",
    query: "SELECT 1 FORMAT CSV",
    expect: "rejected",
    detail: /FORMAT is not allowed/,
  },
  {
    name: "INTO OUTFILE",
    query: "SELECT * FROM logs INTO OUTFILE '/tmp/leak.csv'",
    expect: "rejected",
    detail: /INTO OUTFILE is not allowed/,
  },

  // --- Several statements.
  {
    name: "SELECT then DROP",
    query: "SELECT 1; DROP TABLE traces",
    expect: "rejected",
    detail: /Only one statement/,
  },
  { name: "two semicolons", query: "SELECT 1;;", expect: "rejected", detail: /Only one statement/ },
  {
    name: "two SELECTs",
    query: "SELECT 1; SELECT 2",
    expect: "rejected",
    detail: /Only one statement/,
  },
  { name: "one trailing semicolon is fine", query: "SELECT 1;", expect: "confined", rows: [[1]] },

  // --- Every statement that is not a SELECT.
  ...[
    "INSERT INTO traces (service_name) VALUES ('x')",
    "ALTER TABLE traces DELETE WHERE 1",
    "DROP TABLE traces",
    "CREATE TABLE x (a Int8) ENGINE = Memory",
    "DELETE FROM traces WHERE 1",
    "UPDATE traces SET service_name = 'x' WHERE 1",
    "TRUNCATE TABLE logs",
    "RENAME TABLE traces TO t2",
    "ATTACH TABLE traces",
    "DETACH TABLE traces",
    "OPTIMIZE TABLE traces FINAL",
    "GRANT ALL ON *.* TO default",
    "SET readonly = 0",
    "USE vigil",
    "SYSTEM SHUTDOWN",
    "KILL QUERY WHERE 1",
    "SHOW TABLES",
    "DESCRIBE TABLE traces",
    "EXPLAIN SELECT 1",
    "drop table traces",
    "/* looks harmless */\n  DROP TABLE logs",
    "-- comment first\nTRUNCATE TABLE traces",
  ].map(
    (query): Case => ({
      name: `statement: ${query.replace(/\s+/g, " ").slice(0, 40)}`,
      query,
      expect: "rejected",
      detail: ONLY_SELECT,
    }),
  ),

  // --- Comment tricks.
  {
    name: "block comment hiding a statement",
    query: "SELECT 1 /* ; DROP TABLE traces */",
    expect: "confined",
    rows: [[1]],
  },
  {
    name: "line comment hiding a statement",
    query: "SELECT 1 -- ; DROP TABLE traces",
    expect: "confined",
    rows: [[1]],
  },
  {
    name: "a line comment ends at the newline",
    query: "SELECT count() FROM traces -- ignored\nWHERE service_name = 'victim-secret-svc'",
    expect: "confined",
    rows: [[0]],
  },
  {
    name: "nested block comments",
    query: "SELECT 1 /* outer /* inner */ ; DROP TABLE traces */",
    expect: "confined",
    rows: [[1]],
  },
  {
    name: "comments instead of spaces",
    query: `SELECT/**/service_name/**/FROM/**/traces/**/WHERE/**/trace_id='${A_TRACE}'`,
    expect: "confined",
    rows: [["attacker-svc"]],
  },
  {
    name: "unterminated block comment",
    query: "SELECT 1 /* ; DROP TABLE traces",
    expect: "rejected",
    detail: /Unterminated comment/,
  },
  {
    name: "nested comment left open",
    query: "SELECT 1 /* /* */",
    expect: "rejected",
    detail: /Unterminated comment/,
  },
  { name: "stray comment end", query: "SELECT 1 */", expect: "rejected" },
  { name: "hash comment", query: "SELECT 1 # ; DROP TABLE traces", expect: "rejected" },

  // --- Quoting tricks.
  {
    name: "identifiers with quotes, backticks and semicolons",
    query: 'SELECT 1 AS `a``b`, 2 AS `c\\`d`, 3 AS "e""f", 4 AS `x; DROP TABLE traces --`',
    expect: "confined",
    rows: [[1, 2, 3, 4]],
  },
  {
    name: "alias that closes the guard",
    query: `SELECT service_name AS \`) FROM vigil.traces --\` FROM traces WHERE trace_id = '${A_TRACE}'`,
    expect: "confined",
    rows: [["attacker-svc"]],
  },
  {
    name: "escaped and doubled quotes in strings",
    query: "SELECT 'it\\'s', 'it''s', '\\\\'",
    expect: "confined",
    rows: [["it's", "it's", "\\"]],
  },
  {
    name: "string breaking out of the literal",
    query: "SELECT count() FROM traces WHERE service_name = 'x'') OR 1=1 --'",
    expect: "confined",
    rows: [[0]],
  },
  {
    name: "string ending in a backslash, then OR 1=1",
    query: "SELECT count() FROM traces WHERE service_name = 'x\\' OR \\'1\\'=\\'1'",
    expect: "confined",
    rows: [[0]],
  },
  {
    name: "escaped backslash closes the string; the rest is SQL A may run",
    query: "SELECT count() FROM logs WHERE message = '\\\\' OR 1=1 --'",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },
  {
    name: "control characters in strings",
    query: "SELECT '\\0\\x00\\n\\t'",
    expect: "confined",
    rows: [["\0\0\n\t"]],
  },
  {
    name: "unicode identifiers",
    query: 'SELECT 1 AS ключ, 2 AS 列, 3 AS "😀", 4 AS `\u202Eevil`',
    expect: "confined",
    rows: [[1, 2, 3, 4]],
  },
  {
    name: "quoted table name",
    query: "SELECT count() FROM `error_groups`",
    expect: "confined",
    rows: [[1]],
  },
  {
    name: "quoted table name with a statement in it",
    query: "SELECT * FROM `traces; DROP TABLE traces`",
    expect: "rejected",
    detail: /Unknown table/,
  },
  {
    name: "empty quoted identifier",
    query: "SELECT 1 AS ``",
    expect: "rejected",
    detail: /Empty quoted identifier/,
  },
  {
    name: "unterminated string",
    query: "SELECT 'abc",
    expect: "rejected",
    detail: /Unterminated string/,
  },
  {
    name: "string ending in an escaped quote",
    query: "SELECT 'abc\\'",
    expect: "rejected",
    detail: /Unterminated string/,
  },
  {
    name: "unterminated quoted identifier",
    query: "SELECT 1 AS `abc",
    expect: "rejected",
    detail: /Unterminated quoted identifier/,
  },

  // --- Parameter placeholders typed by the user.
  {
    name: "placeholder as a value",
    query: "SELECT {project:String}",
    expect: "rejected",
    detail: /Unexpected character '\{'/,
  },
  {
    name: "placeholder of a string parameter",
    query: "SELECT count() FROM traces WHERE service_name = {s0:String}",
    expect: "rejected",
  },
  {
    name: "placeholder as a table",
    query: "SELECT * FROM {project:Identifier}",
    expect: "rejected",
  },
  {
    name: "placeholders inside strings stay text",
    query: "SELECT '{project:String}', '{s0:String}', '{s1:String}'",
    expect: "confined",
    rows: [["{project:String}", "{s0:String}", "{s1:String}"]],
  },
  {
    name: "placeholder as a quoted identifier",
    query: "SELECT 1 AS `{project:String}`, 2 AS `{s0:String}`",
    expect: "confined",
    rows: [[1, 2]],
  },

  // --- Deep nesting and oversized queries.
  {
    name: "1000 nested parentheses",
    query: `SELECT ${nested("(", "1", ")", 1000)}`,
    expect: "rejected",
    detail: /nested too deeply/,
  },
  {
    name: "200 nested subqueries",
    query: `SELECT ${nested("(SELECT ", "1", ")", 200)}`,
    expect: "rejected",
    detail: /nested too deeply/,
  },
  {
    name: "200 nested FROM subqueries",
    query: `SELECT * FROM ${nested("(SELECT * FROM ", "traces", ")", 200)}`,
    expect: "rejected",
    detail: /nested too deeply/,
  },
  {
    name: "5000 NOTs",
    query: `SELECT ${"NOT ".repeat(5000)}1`,
    expect: "rejected",
    detail: /nested too deeply/,
  },
  {
    name: "5000-term a+a+… chain",
    query: `SELECT ${Array(5000).fill("a").join("+")} FROM (SELECT 1 AS a)`,
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "900-term a+a+… chain",
    query: `SELECT ${Array(900).fill("1").join("+")}`,
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "3000 chained casts",
    query: `SELECT 1${"::String".repeat(3000)}`,
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "20,001 select items",
    query: `SELECT ${Array(20_001).fill("1").join(",")}`,
    expect: "rejected",
    detail: /too large/,
  },
  {
    name: "a 50,001-character query",
    query: `SELECT 1 /*${"x".repeat(50_001 - 13)}*/`,
    expect: "rejected",
    detail: /50,?000/,
  },
  {
    name: "too many table references",
    query: `SELECT count() FROM ${Array(65).fill("metrics").join(", ")}`,
    expect: "rejected",
    detail: /too many tables/,
  },

  // --- Resource exhaustion: stopped by the limits (422), or refused (400).
  {
    name: "traces × traces × traces × logs × logs",
    query: "SELECT count() FROM traces AS a, traces AS b, traces AS c, logs AS d, logs AS e",
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "groupArray over a huge cross join",
    query: "SELECT groupArray(a.operation_name) FROM traces AS a, traces AS b, logs AS c",
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "arrayJoin(range(1e9))",
    query: "SELECT count() FROM (SELECT arrayJoin(range(1000000000)) AS n)",
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "arrayJoin(range(1e9)) written with a float",
    query: "SELECT arrayJoin(range(1e9))",
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "repeat('x', 1e9)",
    query: "SELECT repeat('x', 1e9)",
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "repeat('x', 1000000000)",
    query: "SELECT length(repeat('x', 1000000000))",
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "repeat('x', 100000000)",
    query: "SELECT length(repeat('x', 100000000))",
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "a scalar subquery over a huge cross join",
    query: "SELECT (SELECT count() FROM traces AS a, traces AS b, traces AS c, traces AS d)",
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "an IN set built from a huge cross join",
    query:
      "SELECT count() FROM logs WHERE message IN (SELECT concat(a.trace_id, b.trace_id, c.trace_id) FROM traces AS a, traces AS b, traces AS c)",
    expect: "rejected",
    status: LIMITS,
  },
  {
    name: "sorting a huge cross join",
    query:
      "SELECT a.trace_id, b.trace_id, c.trace_id FROM traces AS a, traces AS b, traces AS c ORDER BY 1, 2, 3 DESC",
    expect: "rejected",
    status: LIMITS,
  },

  // --- Expressions the engine evaluates before the project guard filters: a conversion that
  // fails only on B's rows would put B's values in the error (or answer yes/no by failing at all).
  {
    name: "error oracle: CAST in WHERE on logs",
    query:
      "SELECT count() FROM logs WHERE CAST(if(service_name LIKE 'attacker%', '1', message) AS UInt8) = 1",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },
  {
    name: "error oracle: CAST in WHERE on traces",
    query:
      "SELECT count() FROM traces WHERE CAST(if(service_name LIKE 'attacker%', '1', service_name) AS UInt8) = 1",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },
  {
    name: "error oracle: CAST in WHERE on metrics",
    query:
      "SELECT count() FROM metrics WHERE CAST(if(metric_name LIKE 'attacker%', '1', metric_name) AS UInt8) = 1",
    expect: "confined",
    rows: [[1]],
  },
  {
    name: "error oracle: CAST in WHERE on ai_spans",
    query:
      "SELECT count() FROM ai_spans WHERE CAST(if(request_model LIKE 'attacker%', '1', request_model) AS UInt8) = 1",
    expect: "confined",
    rows: [[1]],
  },
  {
    name: "error oracle: CAST in WHERE on http_requests",
    query:
      "SELECT count() FROM http_requests WHERE CAST(if(route LIKE '/attacker%', '1', route) AS UInt8) = 1",
    expect: "confined",
    rows: [[1]],
  },
  {
    name: "error oracle: CAST in WHERE on error_groups",
    query:
      "SELECT count() FROM error_groups WHERE CAST(if(fingerprint LIKE 'fp-attacker%', '1', message) AS UInt8) = 1",
    expect: "confined",
    rows: [[1]],
  },
  {
    name: "error oracle: toDate in WHERE",
    query:
      "SELECT count() FROM logs WHERE toDate(if(service_name LIKE 'attacker%', '2020-01-01', message)) > '2000-01-01'",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },
  {
    name: "error oracle: yes/no without B's value in the message",
    query:
      "SELECT count() FROM logs WHERE CAST(if(service_name LIKE 'attacker%' OR message NOT LIKE 'VICTIM%', '1', 'x') AS UInt8) = 1",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },
  {
    name: "error oracle: CAST in a JOIN condition",
    query:
      "SELECT count() FROM traces AS t JOIN logs AS l ON t.trace_id = l.trace_id AND CAST(if(l.service_name LIKE 'attacker%', '1', l.message) AS UInt8) = 1",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },
  {
    name: "error oracle: CAST in an IN subquery",
    query:
      "SELECT count() FROM logs WHERE service_name IN (SELECT service_name FROM logs WHERE CAST(if(service_name LIKE 'attacker%', '1', message) AS UInt8) = 1)",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },
  {
    name: "error oracle: an oversized repeat only for B's rows",
    query:
      "SELECT count() FROM logs WHERE length(repeat('x', if(service_name LIKE 'attacker%', 1, 100000000))) > 0",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },
  {
    name: "expressions in SELECT, GROUP BY and ORDER BY see only A's rows",
    query:
      "SELECT CAST(if(service_name LIKE 'attacker%', '1', message) AS UInt8) AS v, count() FROM logs GROUP BY v ORDER BY CAST(if(any(service_name) LIKE 'attacker%', '1', any(message)) AS UInt8)",
    expect: "confined",
    rows: [[1, BULK_ROWS + 1]],
  },
  {
    name: "error oracle: CAST in WHERE over a subquery",
    query:
      "SELECT count() FROM (SELECT * FROM logs) WHERE CAST(if(service_name LIKE 'attacker%', '1', message) AS UInt8) = 1",
    expect: "confined",
    rows: [[BULK_ROWS + 1]],
  },

  // --- Constructs that cannot work on guarded tables, and literals the engine cannot read: the
  // refusal must not show the rewritten query.
  {
    name: "PREWHERE on a guarded table runs as WHERE",
    query: "SELECT count() FROM traces PREWHERE service_name = 'attacker-svc'",
    expect: "confined",
    rows: [[1]],
  },
  { name: "a number beyond Float64", query: "SELECT 1e400 FROM traces", expect: "rejected" },
  {
    name: "a 300-digit hexadecimal number",
    query: `SELECT 0x${"F".repeat(300)}`,
    expect: "rejected",
  },
  { name: "a 400-digit number", query: `SELECT 1${"0".repeat(400)} FROM logs`, expect: "rejected" },
  {
    name: "a scalar subquery returning several rows",
    query: "SELECT (SELECT service_name FROM traces)",
    expect: "rejected",
  },
  {
    name: "a string too long for its FixedString",
    query: "SELECT CAST('abc' AS FixedString(1))",
    expect: "rejected",
  },
  { name: "FixedString(0)", query: "SELECT CAST('a' AS FixedString(0))", expect: "rejected" },
];

/** Text of the rewritten query or the server's settings: never part of what the caller sees. */
const INTERNALS =
  /project_id`? = |`vigil`\.|\(SELECT `|Syntax error: failed at position|LIMIT 10001|max_memory_usage|max_execution_time|readonly = 1|\{project:String\}/;

function isProblem(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

describe("TQL security over HTTP", () => {
  const dir = makeTempDir("vigil-tql-sec-");
  let service: TestService;
  let projectA: string;
  let projectB: string;
  let keyA: string;
  let keyB: string;
  let ingestKeyA: string;

  /** POST /v1/tql with A's key; `null` sends no key at all. */
  const tql = (query: string, key: string | null = keyA) =>
    service.fetch("/v1/tql", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(key === null ? {} : { "x-api-key": key }),
      },
      body: JSON.stringify({ query }),
    });

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_RATE_LIMIT_PER_MINUTE: "100000",
      VIGIL_TQL_MAX_EXECUTION_SECONDS: String(MAX_EXECUTION_SECONDS),
      VIGIL_TQL_MAX_MEMORY_BYTES: String(256 * 1024 * 1024),
    });
    const setup = await initialize({
      ctx: systemCtx(service.deps.domain),
      input: {
        email: "attacker@example.com",
        password: "correct horse battery",
      },
    });
    projectA = setup.projectId;
    keyA = setup.apiKey ?? "";
    const ctx = {
      deps: service.deps.domain,
      actor: {
        kind: "user" as const,
        userId: setup.userId,
        memberships: [{ orgId: setup.orgId, orgName: "Default", role: "owner" as const }],
      },
    };
    projectB = (await createProject({ ctx, input: { name: "victim" } })).id;
    keyB = (
      await createApiKey({ ctx, projectId: projectB, input: { name: "b", role: "read_only" } })
    ).key;
    ingestKeyA = (
      await createApiKey({ ctx, projectId: projectA, input: { name: "ingest", role: "ingest" } })
    ).key;

    const at = new Date(Date.now() - 60_000);
    const ts = at.toISOString().replace("T", " ").replace("Z", "");
    const minute = `${ts.slice(0, 16)}:00`;
    const telemetry = service.deps.telemetry;
    /** One row per table for a project; A's and B's rows go in together, as the batch writer does. */
    const rowsOf = (
      id: string,
      p: { svc: string; trace: string; log: string; metric: string; model: string; route: string },
    ): Record<string, Record<string, unknown>> => ({
      traces: {
        project_id: id,
        timestamp: ts,
        end_timestamp: ts,
        trace_id: p.trace,
        span_id: p.trace.slice(0, 16),
        operation_name: id === projectA ? "GET /attacker" : "GET /victim-secret",
        span_kind: "server",
        service_name: p.svc,
        duration_ms: 12.5,
        status: "ok",
        http_route: p.route,
      },
      logs: {
        project_id: id,
        id: `log-${p.svc}`,
        timestamp: ts,
        observed_timestamp: ts,
        trace_id: p.trace,
        level: "info",
        service_name: p.svc,
        message: p.log,
      },
      metrics: {
        project_id: id,
        timestamp: ts,
        metric_name: p.metric,
        metric_type: "gauge",
        service_name: p.svc,
        value: 1,
      },
      ai_spans: {
        project_id: id,
        timestamp: ts,
        trace_id: p.trace,
        span_id: p.trace.slice(0, 16),
        service_name: p.svc,
        request_model: p.model,
        input_tokens: 10,
        output_tokens: 5,
        total_tokens: 15,
      },
      http_requests: {
        project_id: id,
        timestamp: minute,
        service_name: p.svc,
        method: "GET",
        route: p.route,
        status_code: 200,
        request_count: 5,
      },
      error_groups: {
        project_id: id,
        fingerprint: id === projectA ? "fp-attacker" : "fp-victim",
        exception_type: id === projectA ? "AttackerError" : "VictimError",
        message: id === projectA ? "attacker error" : "VICTIM-SECRET error",
        first_seen: ts,
        last_seen: ts,
        occurrence_count: 1,
        status: "active",
        services: [p.svc],
        version: 1,
      },
    });
    const a = rowsOf(projectA, {
      svc: "attacker-svc",
      trace: A_TRACE,
      log: "hello from attacker",
      metric: "attacker_metric",
      model: "attacker-model",
      route: "/attacker",
    });
    const b = rowsOf(projectB, {
      svc: "victim-secret-svc",
      trace: B_TRACE,
      log: "VICTIM-SECRET log line",
      metric: "victim_secret_metric",
      model: "victim-secret-model",
      route: "/victim-secret",
    });
    for (const table of Object.keys(a))
      await telemetry.insert(table, [b[table] ?? {}, a[table] ?? {}]);
    const bulk = Array.from({ length: BULK_ROWS }, (_, i) => ({
      project_id: projectA,
      timestamp: ts,
      trace_id: i.toString(16).padStart(32, "0"),
      service_name: "attacker-bulk",
    }));
    await telemetry.insert(
      "traces",
      bulk.map((row) => ({ ...row, operation_name: "bulk" })),
    );
    await telemetry.insert(
      "logs",
      bulk.map((row, i) => ({ ...row, message: `bulk ${i}` })),
    );
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  /** What no response to A may ever contain. */
  const assertNoLeak = (text: string) => {
    expect(text).not.toContain(projectB);
    expect(text).not.toContain(dir.path);
  };

  it("gives B's key B's rows: the markers the cases look for exist", async () => {
    const response = await tql(
      "SELECT (SELECT groupArray(service_name) FROM traces), (SELECT groupArray(message) FROM logs), (SELECT groupArray(message) FROM error_groups)",
      keyB,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { rows: unknown[][] };
    expect(body.rows).toEqual([
      [["victim-secret-svc"], ["VICTIM-SECRET log line"], ["VICTIM-SECRET error"]],
    ]);
  });

  it("has enough cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(70);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    it(`${c.expect}: ${c.name}`, { timeout: (MAX_EXECUTION_SECONDS + 15) * 1000 }, async () => {
      const started = performance.now();
      const response = await tql(c.query);
      const elapsed = performance.now() - started;
      const text = await response.text();
      assertNoLeak(text);
      // Errors may quote the caller's own query, never B's values.
      for (const marker of B_MARKERS)
        if (!c.query.includes(marker)) expect(text, text.slice(0, 500)).not.toContain(marker);
      if (c.expect === "confined") {
        expect(response.status, text.slice(0, 500)).toBe(200);
        const body = JSON.parse(text) as { columns: { name: string }[]; rows: unknown[][] };
        const rows = JSON.stringify(body.rows);
        for (const marker of B_MARKERS) expect(rows).not.toContain(marker);
        for (const column of body.columns) expect(column.name).not.toBe("project_id");
        expect(rows).not.toContain(projectA);
        if (c.rows) expect(body.rows).toEqual(c.rows);
        return;
      }
      const allowed = c.status ?? [400];
      expect(allowed, `status ${response.status}: ${text.slice(0, 500)}`).toContain(
        response.status,
      );
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      const body = JSON.parse(text) as unknown;
      expect(isProblem(body)).toBe(true);
      const problem = body as Record<string, unknown>;
      expect(problem.status).toBe(response.status);
      expect(typeof problem.detail).toBe("string");
      const detail = problem.detail as string;
      expect(detail.length).toBeGreaterThan(10);
      if (c.detail) expect(detail).toMatch(c.detail);
      // A refusal explains the user's query; it never shows the rewritten one or the limits.
      expect(detail).not.toMatch(INTERNALS);
      expect(detail).not.toContain(projectA);
      if (response.status === 422)
        expect(elapsed).toBeLessThan((MAX_EXECUTION_SECONDS + 10) * 1000);
    });
  }

  it("large IN lists: 10,000 items run, 40,000 are refused", async () => {
    const small = await tql(
      `SELECT 7 IN (${Array.from({ length: 10_000 }, (_, i) => i % 10).join(",")})`,
    );
    if (small.status === 200)
      expect(((await small.json()) as { rows: unknown[][] }).rows).toEqual([[1]]);
    else expect(small.status).toBe(400);
    const large = await tql(
      `SELECT 7 IN (${Array.from({ length: 40_000 }, (_, i) => i % 10).join(",")})`,
    );
    expect(large.status).toBe(400);
    expect(large.headers.get("content-type")).toContain("application/problem+json");
  });

  it("positions a syntax error at its line and column", async () => {
    const response = await tql("SELECT 1\nFROM traces\nWHERE project_id = 'x'");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "invalid_input",
      position: { line: 3, column: 7 },
    });
  });

  it("answers 403 to a key without tql:query and 401 without a key", async () => {
    const forbidden = await tql("SELECT 1", ingestKeyA);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("content-type")).toContain("application/problem+json");
    const anonymous = await tql("SELECT 1", null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toContain("application/problem+json");
    const bogus = await tql("SELECT 1", `vgl_${"x".repeat(32)}`);
    expect(bogus.status).toBe(401);
  });

  it("is still healthy and correct after every attack", async () => {
    expect((await service.fetch("/readyz")).status).toBe(200);
    const response = await tql(
      "SELECT service_name, count() AS n FROM traces GROUP BY service_name ORDER BY service_name",
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { rows: unknown[][]; truncated: boolean };
    expect(body.rows).toEqual([
      ["attacker-bulk", BULK_ROWS],
      ["attacker-svc", 1],
    ]);
    const victim = await tql("SELECT count() FROM traces", keyB);
    expect(((await victim.json()) as { rows: unknown[][] }).rows).toEqual([[1]]);
  });
});
