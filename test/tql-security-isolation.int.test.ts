/**
 * Hostile TQL over HTTP, reading across projects: project A's key tries to read project B's rows
 * through subqueries, joins, unions, CTEs, IN, scalar subqueries and EXISTS, and names the hidden
 * project column in every position; keys without tql:query are refused.
 * Cases and fixture: test/helpers/tql-attack.ts.
 */
import { expect, it } from "vitest";
import {
  A_TRACE,
  B_TRACE,
  BULK_ROWS,
  type Case,
  describeTqlAttacks,
  HIDDEN,
} from "./helpers/tql-attack.js";

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
];

describeTqlAttacks("TQL security: another project's rows", CASES, {
  minCases: 51,
  more: (fixture) => {
    it("answers 403 to a key without tql:query and 401 without a key", async () => {
      const forbidden = await fixture.tql("SELECT 1", fixture.ingestKeyA);
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers.get("content-type")).toContain("application/problem+json");
      const anonymous = await fixture.tql("SELECT 1", null);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("content-type")).toContain("application/problem+json");
      const bogus = await fixture.tql("SELECT 1", `vgl_${"x".repeat(32)}`);
      expect(bogus.status).toBe(401);
    });
  },
});
