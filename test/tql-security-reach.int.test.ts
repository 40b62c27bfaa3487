/**
 * Hostile TQL over HTTP, reaching beyond the TQL tables: database-qualified and system tables,
 * table functions wherever a table may appear, scalar functions that reach outside the query, and
 * IN with a table on the right.
 * Cases and fixture: test/helpers/tql-attack.ts.
 */
import {
  type Case,
  DISALLOWED_FUNCTION,
  describeTqlAttacks,
  QUALIFIED,
  TABLE_FUNCTION,
} from "./helpers/tql-attack.js";

const CASES: Case[] = [
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
];

describeTqlAttacks("TQL security: beyond the TQL tables", CASES, {
  minCases: 64,
});
