/**
 * The function allow-list held against chDB: only functions chDB has, with its aggregate and
 * case-insensitive flags, every argument count it takes, a sample call of each running, and
 * ClickHouse's letter-case and combinator rules. The list on its own: src/tql/functions.test.ts;
 * what stays out: test/tql-functions-forbidden.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import type { FunctionDef } from "../src/tql/functions/function-def.js";
import { FUNCTIONS, resolveFunction } from "../src/tql/functions.js";
import { makeTempDir } from "./helpers/temp-dir.js";

interface SystemFunction {
  name: string;
  is_aggregate: number;
  case_insensitive: number;
  alias_to: string;
  categories: string;
}

/**
 * Registered names that system.functions does not list: chDB resolves them itself (sumMap is
 * sum with the Map combinator, dateAdd is rewritten by the parser, untuple by the analyzer).
 * Each is checked with a call instead, over three rows of `x`, `t` and `s`.
 */
const ENGINE_RESOLVED: Readonly<Record<string, string>> = {
  sumMap: "sumMap([x], [x])",
  minMap: "minMap([x], [x])",
  maxMap: "maxMap([x], [x])",
  dateAdd: "dateAdd(DAY, 1, t)",
  dateSub: "dateSub(DAY, 1, t)",
  untuple: "untuple((x, s))",
};
const THREE_ROWS = "(SELECT arrayJoin([1, 2, 3]) AS x, toDate('2024-01-01') AS t, 'a' AS s)";

/**
 * Argument counts chDB takes but the registry does not, on purpose: extra arguments the engine
 * ignores, undocumented internal forms, and syntax the parser rewrites before counting.
 */
const NARROWER_THAN_ENGINE = [
  "JSON_EXISTS/3", // extra arguments are ignored
  "JSON_QUERY/3",
  "JSON_VALUE/3",
  "mapAll/1", // the lambda is optional in name only: a map alone never type-checks
  "mapExists/1",
  "not/0", // not(a, b) parses as NOT (a, b), a tuple
  "not/2",
  "parseDateTimeBestEffort/3", // undocumented (s, scale, time_zone) form
  "parseDateTimeBestEffortOrNull/3",
  "parseDateTimeBestEffortOrZero/3",
  "toDateTime/3", // undocumented (value, scale, time_zone) form
  "untuple/0", // a special form, not counted like a function's arguments
  "untuple/2",
];

const ARITY_ERRORS = new Set([34, 35, 42]); // TOO_MANY_, TOO_FEW_, NUMBER_OF_ARGUMENTS_DOESNT_MATCH
const SYNTAX_ERROR = 62;

/** A call: fn(params)(args), run over ten rows of x (UInt64), t (DateTime), s (String), arr. */
interface Sample {
  fn: string;
  args: readonly string[];
  params?: readonly string[];
}
const SAMPLE_ROWS =
  "(SELECT number AS x, toDateTime('2024-01-01 00:00:00', 'UTC') + number * 60 AS t, toString(number) AS s, [number, number + 1] AS arr, map('k', number) AS m FROM numbers(1, 10))";
const SAMPLES: readonly Sample[] = [
  { fn: "COUNT", args: [] },
  { fn: "count", args: ["x"] },
  { fn: "countIf", args: ["x > 5"] },
  { fn: "countIf", args: ["x", "x > 5"] },
  { fn: "countDistinct", args: ["x"] },
  { fn: "Sum", args: ["x"] },
  { fn: "sumArray", args: ["arr"] },
  { fn: "sumArrayIf", args: ["arr", "x > 5"] },
  { fn: "sumForEach", args: ["arr"] },
  { fn: "uniqExactIf", args: ["x", "s", "x > 5"] },
  { fn: "avgOrNullIf", args: ["x", "x > 100"] },
  { fn: "maxOrDefault", args: ["x"] },
  { fn: "argMax", args: ["s", "x"] },
  { fn: "quantile", args: ["x"] },
  { fn: "quantile", params: ["0.95"], args: ["x"] },
  { fn: "quantileIf", params: ["0.9"], args: ["x", "x > 5"] },
  { fn: "quantiles", params: ["0.5", "0.9", "0.99"], args: ["x"] },
  { fn: "quantileTDigestWeighted", params: ["0.5"], args: ["x", "x"] },
  { fn: "quantileTiming", params: ["0.5"], args: ["x"] },
  { fn: "quantileGK", params: ["100", "0.5"], args: ["x"] },
  { fn: "quantilesDD", params: ["0.01", "0.5", "0.9"], args: ["x"] },
  { fn: "medianGK", params: ["100"], args: ["x"] },
  { fn: "medianExact", args: ["x"] },
  { fn: "topK", params: ["3"], args: ["s"] },
  { fn: "topK", args: ["s"] },
  { fn: "topKWeighted", params: ["3", "5", "'counts'"], args: ["s", "x"] },
  { fn: "histogram", params: ["5"], args: ["x"] },
  { fn: "groupArray", params: ["3"], args: ["x"] },
  { fn: "groupArrayLast", params: ["3"], args: ["x"] },
  { fn: "groupArraySample", params: ["3", "42"], args: ["x"] },
  { fn: "groupArraySorted", params: ["3"], args: ["x"] },
  { fn: "groupArrayInsertAt", params: ["'-'", "3"], args: ["s", "x"] },
  { fn: "groupConcat", params: ["','"], args: ["s"] },
  { fn: "uniqUpTo", params: ["4"], args: ["x"] },
  { fn: "uniqCombined", params: ["12"], args: ["x", "s"] },
  { fn: "sumMap", args: ["[x]", "[x]"] },
  { fn: "sumMap", args: ["m"] },
  { fn: "windowFunnel", params: ["3600"], args: ["t", "x = 1", "x = 2", "x = 3"] },
  { fn: "sequenceMatch", params: ["'(?1)(?2)'"], args: ["t", "x = 1", "x = 2"] },
  { fn: "retention", args: ["x = 1", "x = 2"] },
  { fn: "sparkbar", params: ["5"], args: ["x", "x"] },
  { fn: "largestTriangleThreeBuckets", params: ["3"], args: ["x", "x"] },
  { fn: "exponentialMovingAverage", params: ["5"], args: ["x", "x"] },
  { fn: "simpleLinearRegression", args: ["x", "x"] },
  { fn: "studentTTest", params: ["0.95"], args: ["x", "x % 2"] },
  { fn: "mannWhitneyUTest", params: ["'two-sided'"], args: ["x", "x % 2"] },
  { fn: "now", args: ["'UTC'"] },
  { fn: "toStartOfInterval", args: ["t", "INTERVAL 5 MINUTE", "'UTC'"] },
  { fn: "toStartOfFiveMinutes", args: ["t"] },
  { fn: "dateDiff", args: ["'second'", "t", "t + 60", "'UTC'"] },
  { fn: "DATEADD", args: ["DAY", "1", "t"] },
  { fn: "dateAdd", args: ["t", "INTERVAL 1 DAY"] },
  { fn: "addDays", args: ["t", "1", "'UTC'"] },
  { fn: "formatDateTime", args: ["t", "'%Y-%m-%d'", "'UTC'"] },
  { fn: "parseDateTime64BestEffortOrNull", args: ["'2024-01-01 00:00:00.123'", "3", "'UTC'"] },
  { fn: "fromUnixTimestamp64Milli", args: ["toInt64(x)", "'UTC'"] },
  { fn: "makeDateTime64", args: ["2024", "1", "2", "3", "4", "5", "6", "3", "'UTC'"] },
  { fn: "substring", args: ["s", "1", "2"] },
  { fn: "extractKeyValuePairs", args: ["'a=1 b=2'", "'='", "' '", "'\"'", "'accept'"] },
  { fn: "arrayMap", args: ["(a, b) -> a + b", "arr", "arr"] },
  { fn: "arrayFilter", args: ["a -> a > 1", "arr"] },
  { fn: "arraySum", args: ["arr"] },
  { fn: "arrayFold", args: ["(acc, a) -> acc + a", "arr", "toUInt64(0)"] },
  { fn: "arrayTopK", args: ["1", "arr"] },
  { fn: "mapFilter", args: ["(k, v) -> v > 1", "m"] },
  { fn: "mapSort", args: ["m"] },
  { fn: "JSONExtract", args: ["'{\"a\": [1]}'", "'a'", "'Array(Int64)'"] },
  { fn: "JSON_VALUE", args: ["'{\"a\": 1}'", "'$.a'"] },
  { fn: "multiIf", args: ["x > 5", "'big'", "x > 2", "'medium'", "'small'"] },
  { fn: "coalesce", args: ["NULL", "x"] },
  { fn: "tupleElement", args: ["(x, s)", "3", "0"] },
  { fn: "cityHash64", args: ["x", "s"] },
  { fn: "transform", args: ["x", "[1, 2]", "[10, 20]", "0"] },
  { fn: "bar", args: ["x", "0", "10", "20"] },
  { fn: "formatReadableTimeDelta", args: ["x", "'hours'", "'seconds'"] },
  { fn: "isIPAddressInRange", args: ["'10.1.2.3'", "'10.0.0.0/8'"] },
  { fn: "port", args: ["'http://example.com:8080/a'", "toUInt16(80)"] },
];

function callOf(sample: Sample): string {
  const params = sample.params ? `(${sample.params.join(", ")})` : "";
  return `${sample.fn}${params}(${sample.args.join(", ")})`;
}

describe("TQL function registry on chDB", () => {
  const dir = makeTempDir();
  let executor: TelemetryExecutor;
  let system: ReadonlyMap<string, SystemFunction>;

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "functions_test" });
    const rows = await executor.query<SystemFunction>(
      "SELECT name, is_aggregate, case_insensitive, alias_to, categories FROM system.functions",
    );
    system = new Map(rows.map((row) => [row.name, row]));
  });
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  /** 0 when the statement runs, else the ClickHouse error code (-1 when there is none). */
  async function errorCode(sql: string): Promise<number> {
    try {
      await executor.query(sql);
      return 0;
    } catch (error) {
      const code = /Code: (\d+)/.exec(String(error));
      return code ? Number(code[1]) : -1;
    }
  }

  it("lists only functions chDB has, with its aggregate and case-insensitive flags", () => {
    const mismatches: string[] = [];
    for (const def of FUNCTIONS) {
      const row = system.get(def.name);
      if (!row) continue;
      if (def.aggregate !== (row.is_aggregate === 1))
        mismatches.push(`${def.name}: aggregate ${def.aggregate}`);
      if ((def.caseInsensitive ?? false) !== (row.case_insensitive === 1))
        mismatches.push(`${def.name}: caseInsensitive ${def.caseInsensitive ?? false}`);
    }
    expect(mismatches).toEqual([]);
    const unlisted = FUNCTIONS.filter((def) => !system.has(def.name)).map((def) => def.name);
    expect(unlisted.sort()).toEqual(Object.keys(ENGINE_RESOLVED).sort());
  });

  it.each(Object.entries(ENGINE_RESOLVED))(
    "%s, missing from system.functions, is resolved by chDB as registered",
    async (name, call) => {
      const def = FUNCTIONS.find((entry) => entry.name === name) as FunctionDef;
      const rows = await executor.query(`SELECT ${call} FROM ${THREE_ROWS}`);
      expect(rows.length).toBe(def.aggregate ? 1 : 3);
      const upper = await errorCode(
        `SELECT ${call.replace(name, name.toUpperCase())} FROM ${THREE_ROWS}`,
      );
      expect(upper === 0).toBe(def.caseInsensitive ?? false);
    },
  );

  it("takes every argument count chDB takes, except where narrower on purpose", async () => {
    const values = ["1", "'a'", "[1]", "map(1, 1)"];
    const accepted: string[] = [];
    for (const def of FUNCTIONS) {
      const params =
        def.params && def.params.min > 0 ? `(${Array(def.params.min).fill("1").join(", ")})` : "";
      const outside = [def.minArgs - 1, def.maxArgs + 1].filter(
        (n) => n >= 0 && Number.isFinite(n),
      );
      for (const n of outside) {
        const codes: number[] = [];
        for (const value of values)
          codes.push(
            await errorCode(`SELECT ${def.name}${params}(${Array(n).fill(value).join(", ")})`),
          );
        const rejected =
          !codes.includes(0) && codes.some((c) => ARITY_ERRORS.has(c) || c === SYNTAX_ERROR);
        if (!rejected) accepted.push(`${def.name}/${n}`);
      }
    }
    expect(accepted.sort()).toEqual(NARROWER_THAN_ENGINE);
  }, 180_000);

  it.each(SAMPLES.map((sample) => [callOf(sample), sample] as const))(
    "%s is within the registered bounds and runs",
    async (_call, sample) => {
      const resolved = resolveFunction(sample.fn);
      expect(resolved, sample.fn).toBeDefined();
      if (!resolved) return;
      expect(sample.args.length).toBeGreaterThanOrEqual(resolved.minArgs);
      expect(sample.args.length).toBeLessThanOrEqual(resolved.maxArgs);
      const params = sample.params?.length ?? 0;
      expect(params).toBeGreaterThanOrEqual(resolved.params?.min ?? 0);
      expect(params).toBeLessThanOrEqual(resolved.params?.max ?? 0);
      expect(await errorCode(`SELECT ${callOf(sample)} FROM ${SAMPLE_ROWS}`)).toBe(0);
    },
  );

  it("follows ClickHouse on letter case and combinator suffixes", async () => {
    const calls: readonly (readonly [name: string, args: string])[] = [
      ["count", "()"],
      ["COUNT", "()"],
      ["Count", "()"],
      ["countIf", "(1)"],
      ["CountIf", "(1)"],
      ["COUNTIf", "(1)"],
      ["COUNTIF", "(1)"],
      ["countif", "(1)"],
      ["SUM", "(1)"],
      ["SumIf", "(1, 1)"],
      ["SUMIF", "(1, 1)"],
      ["sumIF", "(1, 1)"],
      ["median", "(1)"],
      ["MEDIAN", "(1)"],
      ["medianIf", "(1, 1)"],
      ["LOWER", "('a')"],
      ["lowerIf", "('a', 1)"],
      ["LOWERUTF8", "('a')"],
      ["toSTRING", "(1)"],
      ["dateadd", "(DAY, 1, today())"],
      ["DateDiff", "('day', today(), today())"],
      ["sumMapIf", "([1], [1], 1)"],
      ["SUMMAP", "([1], [1])"],
      ["quantilesTimingIf", "(0.5)(1, 1)"],
      ["uniqExactArrayIf", "([1], 1)"],
      ["avgOrNullIf", "(1, 1)"],
      ["sumState", "(1)"],
    ];
    const mismatches: string[] = [];
    for (const [name, args] of calls) {
      const allowed = resolveFunction(name) !== undefined;
      const engine = await errorCode(`SELECT ${name}${args}`);
      if (allowed !== (engine === 0))
        mismatches.push(`${name}: TQL ${allowed ? "allows" : "rejects"}, chDB error ${engine}`);
    }
    // -State runs in chDB but yields an internal aggregation state: left out on purpose.
    expect(mismatches).toEqual(["sumState: TQL rejects, chDB error 0"]);
  });
});
