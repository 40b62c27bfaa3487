/**
 * Hostile TQL over HTTP, smuggling SQL: SETTINGS, FORMAT and INTO OUTFILE, several statements,
 * every statement that is not a SELECT, and comment, quoting and parameter-placeholder tricks.
 * Cases and fixture: test/helpers/tql-attack.ts.
 */
import {
  A_TRACE,
  BULK_ROWS,
  type Case,
  describeTqlAttacks,
  ONLY_SELECT,
} from "./helpers/tql-attack.js";

const CASES: Case[] = [
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
    // The query's own parameter (bound as p_project, never the guard's), given no value.
    detail: /Parameter 'project' \(String\) has no value: give it as parameters\.project/,
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
];

describeTqlAttacks("TQL security: smuggled statements and SQL", CASES, {
  minCases: 58,
});
