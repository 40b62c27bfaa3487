/**
 * Hostile TQL over HTTP, through the engine's errors: expressions the engine evaluates before the
 * project guard filters, constructs that cannot work on guarded tables and literals the engine
 * cannot read. A refusal explains the caller's query; it never shows the rewritten one, B's values
 * or the limits, and a syntax error carries its line and column.
 * Cases and fixture: test/helpers/tql-attack.ts.
 */
import { expect, it } from "vitest";
import { BULK_ROWS, type Case, describeTqlAttacks } from "./helpers/tql-attack.js";

const CASES: Case[] = [
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

describeTqlAttacks("TQL security: what errors show", CASES, {
  minCases: 20,
  more: (fixture) => {
    it("positions a syntax error at its line and column", async () => {
      const response = await fixture.tql("SELECT 1\nFROM traces\nWHERE project_id = 'x'");
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: "invalid_input",
        position: { line: 3, column: 7 },
      });
    });
  },
});
