/**
 * Seeded fuzzing of TQL, the compiler: random token streams, mutations of valid queries and calls
 * of allow-listed functions either compile to guarded SQL or are refused with a TqlError.
 * Inputs: test/helpers/tql-fuzz-inputs.ts; checks: test/helpers/tql-fuzz-outcomes.ts.
 */
import { describe, expect, it } from "vitest";
import { compileTql } from "../src/tql/compile.js";
import {
  CALLS,
  getCorpus,
  MUTATIONS,
  prng,
  RANDOM_STREAMS,
  randomStream,
  SEED,
} from "./helpers/tql-fuzz-inputs.js";
import {
  GUARDS,
  getOutcomes,
  guardViolation,
  OPTIONS,
  refusalProblem,
  show,
} from "./helpers/tql-fuzz-outcomes.js";
import { SEEDS } from "./helpers/tql-fuzz-vocabulary.js";

describe("TQL fuzzing: the compiler", () => {
  it("is deterministic", () => {
    const first = getCorpus();
    const rand = prng(SEED);
    expect(randomStream(rand)).toBe(first.randoms[0]);
    expect(first.randoms).toHaveLength(RANDOM_STREAMS);
    expect(first.mutations).toHaveLength(MUTATIONS);
    expect(first.calls).toHaveLength(CALLS);
  });

  it(`refuses or guards ${RANDOM_STREAMS} random token streams, ${MUTATIONS} mutations and ${CALLS} calls`, () => {
    const all = getOutcomes();
    const problems: string[] = [];
    for (const outcome of all) {
      if (outcome.compiled) {
        if (outcome.violation)
          problems.push(`guard: ${outcome.violation} in ${show(outcome.text)}`);
      } else {
        const problem = refusalProblem(outcome);
        if (problem) problems.push(`throw: ${problem} for ${show(outcome.text)}`);
      }
      if (outcome.ms > 2_000)
        problems.push(`slow: ${Math.round(outcome.ms)} ms for ${show(outcome.text)}`);
    }
    expect(problems, problems.slice(0, 30).join("\n")).toEqual([]);
    const compiled = all.filter((o) => o.compiled).length;
    const slowest = Math.max(...all.map((o) => o.ms));
    console.info(
      `compiler: ${all.length} inputs, ${compiled} compiled, slowest ${Math.round(slowest)} ms`,
    );
    // Enough of both outcomes for the fuzzing to mean something.
    expect(compiled).toBeGreaterThan(400);
    expect(all.length - compiled).toBeGreaterThan(RANDOM_STREAMS / 2);
  });

  it("notices SQL that breaks the rules (a check of the check)", () => {
    const text = "SELECT count() FROM traces";
    const { sql, params } = compileTql(text, OPTIONS);
    expect(guardViolation(text, sql, params)).toBeUndefined();
    const [tracesGuard = ""] = GUARDS;
    expect(
      guardViolation(text, sql.replace(tracesGuard, "`vigil`.`traces`"), params),
    ).toBeDefined();
    expect(guardViolation(text, `${sql} SETTINGS readonly = 0`, params)).toBeDefined();
    expect(guardViolation(text, sql.replace("count()", "`project_id`"), params)).toBeDefined();
    expect(guardViolation(text, sql.replace("count()", "{project:String}"), params)).toBeDefined();
    expect(guardViolation(text, sql.replace("count()", "{s9:String}"), params)).toBeDefined();
    expect(guardViolation(text, `${sql}; DROP TABLE x`, params)).toBeDefined();
  });

  it("compiles every seed query", () => {
    for (const seed of SEEDS) expect(() => compileTql(seed, OPTIONS), seed).not.toThrow();
  });
});
