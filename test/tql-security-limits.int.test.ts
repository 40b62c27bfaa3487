/**
 * Hostile TQL over HTTP, exhausting the engine: deep nesting, oversized queries and IN lists, and
 * queries stopped by the time, memory and rows-read limits (422) or refused (400).
 * Cases and fixture: test/helpers/tql-attack.ts.
 */
import { expect, it } from "vitest";
import { type Case, describeTqlAttacks, LIMITS, nested } from "./helpers/tql-attack.js";

const CASES: Case[] = [
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
];

describeTqlAttacks("TQL security: resource exhaustion", CASES, {
  minCases: 20,
  more: (fixture) => {
    it("large IN lists: 10,000 items run, 40,000 are refused", async () => {
      const small = await fixture.tql(
        `SELECT 7 IN (${Array.from({ length: 10_000 }, (_, i) => i % 10).join(",")})`,
      );
      if (small.status === 200)
        expect(((await small.json()) as { rows: unknown[][] }).rows).toEqual([[1]]);
      else expect(small.status).toBe(400);
      const large = await fixture.tql(
        `SELECT 7 IN (${Array.from({ length: 40_000 }, (_, i) => i % 10).join(",")})`,
      );
      expect(large.status).toBe(400);
      expect(large.headers.get("content-type")).toContain("application/problem+json");
    });
  },
});
