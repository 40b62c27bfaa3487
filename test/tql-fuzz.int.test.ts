/**
 * Seeded fuzzing of TQL: random token streams and mutations of valid queries go through the
 * compiler (every input either compiles to guarded SQL or is refused with a TqlError), then the
 * ones that compiled run in the engine (no raw engine error may escape the error mapping) and a
 * sample goes over HTTP (never a 5xx). Deterministic: the same seed gives the same inputs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../src/lib/domain-errors.js";
import { initialize } from "../src/setup/initialize.js";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import { quoteIdentifier, type TelemetryExecutor } from "../src/telemetry/executor.js";
import { ensureTelemetrySchema } from "../src/telemetry/schema.js";
import { PROJECT_COLUMN, type TableDef, TELEMETRY_TABLES } from "../src/telemetry/tables.js";
import { analyzeTql } from "../src/tql/analyzer.js";
import { compileTql, DEFAULT_MAX_TABLE_REFERENCES } from "../src/tql/compile.js";
import { TqlError } from "../src/tql/tql-errors.js";
import { FUNCTIONS as ALLOWED_FUNCTIONS } from "../src/tql/functions.js";
import { parseTql } from "../src/tql/parser.js";
import { createTqlService, type TqlService } from "../src/tql/tql-service.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const SEED = 0x7e51_2026;
const RANDOM_STREAMS = 5_000;
/** Half rough (tokens and characters), half gentle (a literal, operator, name or keyword swapped). */
const MUTATIONS = 3_000;
/** Calls of allow-listed functions with random arguments: they reach the most engine errors. */
const CALLS = 3_000;
const ENGINE_INPUTS = 3000;
const HTTP_INPUTS = 120;
const OPTIONS = { database: "vigil", rowCap: 10_001 } as const;

const PROJECT_A = "prj_fuzz_attacker";
const PROJECT_B = "prj_fuzz_victim";
const B_MARKERS = ["victim-secret-svc", "VICTIM-SECRET", PROJECT_B];

// ---------------------------------------------------------------------------------------------
// Deterministic generation.

/** mulberry32: a small, fast PRNG with a 32-bit state. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T =>
  items[Math.floor(rand() * items.length)] as T;
const int = (rand: Rand, max: number) => Math.floor(rand() * max);

const KEYWORDS = [
  "SELECT",
  "FROM",
  "WHERE",
  "GROUP",
  "BY",
  "ORDER",
  "LIMIT",
  "OFFSET",
  "HAVING",
  "PREWHERE",
  "JOIN",
  "LEFT",
  "RIGHT",
  "FULL",
  "CROSS",
  "INNER",
  "OUTER",
  "ANY",
  "ALL",
  "SEMI",
  "ANTI",
  "ASOF",
  "GLOBAL",
  "ON",
  "USING",
  "UNION",
  "DISTINCT",
  "EXCEPT",
  "INTERSECT",
  "WITH",
  "AS",
  "IN",
  "NOT",
  "AND",
  "OR",
  "LIKE",
  "ILIKE",
  "BETWEEN",
  "IS",
  "NULL",
  "TRUE",
  "FALSE",
  "CASE",
  "WHEN",
  "THEN",
  "ELSE",
  "END",
  "INTERVAL",
  "HOUR",
  "DAY",
  "MINUTE",
  "CAST",
  "EXISTS",
  "ARRAY",
  "ASC",
  "DESC",
  "NULLS",
  "FIRST",
  "LAST",
  "FINAL",
  "SAMPLE",
  "SETTINGS",
  "FORMAT",
  "INTO",
  "OUTFILE",
  "DROP",
  "INSERT",
  "TABLE",
  "TOTALS",
  "WINDOW",
  "OVER",
  "QUALIFY",
  "RECURSIVE",
];
const TABLES = [
  "traces",
  "logs",
  "metrics",
  "ai_spans",
  "http_requests",
  "error_groups",
  "sessions",
  "system.one",
  "vigil.traces",
  "`vigil`.`logs`",
  "numbers(10)",
  "default.x",
];
const COLUMNS = [
  "timestamp",
  "service_name",
  "trace_id",
  "span_id",
  "message",
  "duration_ms",
  "duration_ns",
  "attributes",
  "attributes['http.method']",
  "project_id",
  "`project_id`",
  '"project_id"',
  "level",
  "value",
  "status",
  "metric_name",
  "fingerprint",
  "services",
  "events_name",
  "request_count",
  "cost_usd",
  "t.service_name",
  "l.message",
  "x",
  "n",
  "t",
  "l",
  "a",
  "b",
];
const FUNCTIONS = [
  "count(",
  "count()",
  "sum(",
  "avg(",
  "min(",
  "max(",
  "uniq(",
  "any(",
  "quantile(0.95)(",
  "groupArray(",
  "countIf(",
  "toString(",
  "lower(",
  "length(",
  "concat(",
  "if(",
  "round(",
  "arrayJoin(",
  "arrayMap(x -> x,",
  "arrayFilter(",
  "has(",
  "now()",
  "toDate(",
  "toStartOfHour(",
  "position(",
  "in(",
  "toUInt8(",
  "repeat(",
  "range(",
  "JSONExtract(",
  "toFixedString(",
  "sleep(",
  "file(",
  "joinGet(",
  "dictGet(",
  "currentDatabase()",
  "tuple(",
  "map(",
  "dateAdd(",
];
const OPERATORS = [
  "+",
  "-",
  "*",
  "/",
  "%",
  "=",
  "==",
  "!=",
  "<>",
  "<",
  "<=",
  ">",
  ">=",
  "||",
  "::",
  "->",
  "?",
  ":",
  ".",
  ",",
  ",",
  ";",
  "(",
  "(",
  ")",
  ")",
  "[",
  "]",
  "*",
];
const LITERALS = [
  "0",
  "1",
  "42",
  "1.5",
  ".5",
  "1e3",
  "1e400",
  "0x1F",
  "0b101",
  "99999999999999999999",
  "-1",
  "'x'",
  "''",
  "'victim-secret-svc'",
  "'it''s'",
  "'\\''",
  "'{project:String}'",
  "'{s0:String}'",
  "'a\\nb'",
  "'\\x00'",
  "'%'",
  "'[1,'",
  "'2026-01-01'",
];
const WEIRD = [
  "-- c\n",
  "/* c */",
  "/* /* */ */",
  "/*",
  "*/",
  "--",
  "'",
  '"',
  "`",
  "{project:String}",
  "{s0:String}",
  "{",
  "}",
  "#",
  "$",
  "@",
  "\\",
  "ключ",
  "😀",
  "`a``b`",
  '"a b"',
  "`x;y`",
  "`)--`",
  "\u0000",
  "\u00a0",
  "\u202e",
  ";;",
  "SELECT 1;",
  "DROP TABLE traces",
];
const SEPARATORS = [" ", " ", " ", " ", "", "\n", "\t", "  "];

function randomToken(rand: Rand): string {
  const r = rand();
  if (r < 0.25) return pick(rand, KEYWORDS);
  if (r < 0.35) return pick(rand, TABLES);
  if (r < 0.5) return pick(rand, COLUMNS);
  if (r < 0.58) return pick(rand, FUNCTIONS);
  if (r < 0.8) return pick(rand, OPERATORS);
  if (r < 0.92) return pick(rand, LITERALS);
  return pick(rand, WEIRD);
}

function randomStream(rand: Rand): string {
  const parts: string[] = rand() < 0.7 ? ["SELECT"] : [];
  const length = 1 + int(rand, 30);
  for (let i = 0; i < length; i++) parts.push(randomToken(rand));
  return parts.map((part) => `${part}${pick(rand, SEPARATORS)}`).join("");
}

/** Valid TQL over every table and most constructs: the material the mutations work on. */
const SEEDS = [
  "SELECT 1",
  "SELECT count() FROM traces",
  "SELECT * FROM logs LIMIT 5",
  "SELECT service_name, count() AS n FROM traces GROUP BY service_name ORDER BY n DESC LIMIT 10",
  "SELECT service_name, quantile(0.95)(duration_ms) AS p95 FROM traces WHERE timestamp > now() - INTERVAL 1 HOUR GROUP BY service_name",
  "SELECT toStartOfHour(timestamp) AS h, countIf(status = 'error') FROM traces GROUP BY h ORDER BY h",
  "SELECT message FROM logs WHERE level = 'error' AND message LIKE '%timeout%' ORDER BY timestamp DESC LIMIT 20",
  "SELECT t.trace_id, l.message FROM traces AS t JOIN logs AS l ON t.trace_id = l.trace_id LIMIT 10",
  "SELECT t.service_name, count() FROM traces AS t LEFT JOIN logs AS l USING (trace_id) GROUP BY t.service_name",
  "SELECT a.service_name FROM traces AS a, logs AS b WHERE a.trace_id = b.trace_id",
  "SELECT * FROM (SELECT service_name, count() AS c FROM traces GROUP BY service_name) WHERE c > 1",
  "WITH recent AS (SELECT * FROM logs WHERE timestamp > now() - INTERVAL 1 DAY) SELECT level, count() FROM recent GROUP BY level",
  "WITH traces AS (SELECT 1 AS x) SELECT x FROM traces",
  "WITH 5 AS k SELECT k * 2",
  "SELECT service_name FROM traces UNION ALL SELECT service_name FROM logs",
  "SELECT metric_name FROM metrics UNION DISTINCT SELECT 'x'",
  "SELECT count() FROM logs WHERE trace_id IN (SELECT trace_id FROM traces WHERE status = 'error')",
  "SELECT (SELECT count() FROM traces), (SELECT max(timestamp) FROM logs)",
  "SELECT EXISTS (SELECT 1 FROM error_groups WHERE status = 'active')",
  "SELECT fingerprint, occurrence_count FROM error_groups ORDER BY last_seen DESC",
  "SELECT s, count() FROM error_groups ARRAY JOIN services AS s GROUP BY s",
  "SELECT request_model, sum(input_tokens), sum(cost_usd) FROM ai_spans GROUP BY request_model",
  "SELECT route, sum(request_count), sumForEach(duration_buckets) FROM http_requests GROUP BY route",
  "SELECT metric_name, avg(value) FROM metrics WHERE metric_type = 'gauge' GROUP BY metric_name",
  "SELECT attributes['http.method'] AS m, count() FROM traces GROUP BY m",
  "SELECT arrayMap(x -> x * 2, [1, 2, 3])",
  "SELECT arrayFilter(x -> x > 1, [1, 2, 3]), arrayJoin([1, 2])",
  "SELECT CASE WHEN duration_ms > 100 THEN 'slow' ELSE 'fast' END AS speed, count() FROM traces GROUP BY speed",
  "SELECT CAST(duration_ms AS UInt32), duration_ms::String, toString(duration_ns) FROM traces LIMIT 3",
  "SELECT if(status = 'error', 1, 0) + 1, duration_ms BETWEEN 1 AND 10, trace_id IS NOT NULL FROM traces",
  "SELECT level, count() FROM logs GROUP BY level HAVING count() > 0 ORDER BY level NULLS LAST",
  "SELECT service_name FROM traces ORDER BY timestamp DESC LIMIT 1 BY service_name",
  "SELECT DISTINCT service_name FROM logs LIMIT 3 OFFSET 1",
  "SELECT lower(message), length(message), concat(service_name, ':', level) FROM logs",
  "SELECT tuple(1, 'a').1, [1, 2][1], (1, 2)",
  "SELECT count() FROM traces WHERE service_name IN ('a', 'b') AND NOT (status = 'ok')",
  "SELECT count() FROM traces AS t1 JOIN traces AS t2 ON t1.parent_span_id = t2.span_id",
  "SELECT round(avg(duration_ms), 2) FROM traces WHERE http_status_code >= 500",
  "SELECT uniq(user_id), uniq(session_id) FROM logs",
  "SELECT 'it''s', 'a\\'b', '{project:String}'",
  'SELECT 1 AS `a``b`, 2 AS "c d"',
  "SELECT count() FROM logs -- trailing comment",
  "SELECT /* inline */ 1",
  "SELECT toDate(timestamp) AS d, count() FROM metrics GROUP BY d ORDER BY d",
  "SELECT position(message, 'x') FROM logs WHERE message ILIKE '%X%'",
  "SELECT count() FROM traces FULL OUTER JOIN logs ON traces.trace_id = logs.trace_id",
  "SELECT count() FROM traces CROSS JOIN metrics",
  "SELECT groupArray(service_name) FROM (SELECT DISTINCT service_name FROM traces)",
  "SELECT has(events_name, 'exception') FROM traces",
  "SELECT (SELECT 1) IN (1, 2), 3 IN [1, 2, 3]",
  "SELECT duration_ms > 10 ? 'a' : 'b' FROM traces",
  "SELECT -duration_ms, duration_ms % 2, duration_ms / 3 FROM traces",
  "SELECT * FROM traces AS t LEFT ANY JOIN logs AS l ON t.trace_id = l.trace_id",
  "SELECT count() FROM traces PREWHERE service_name = 'a'",
  "SELECT sum(total_tokens) FROM ai_spans WHERE timestamp >= toStartOfDay(now())",
];

function tokensOf(text: string): string[] {
  return text.split(/(\s+|[(),;[\]])/).filter((part) => part.length > 0);
}

const INJECTIONS = ["'", '"', "`", ";", "--", "/*", "*/", "\\", "(", ")", "{project:String}", "\n"];

function mutate(rand: Rand, text: string): string {
  let tokens = tokensOf(text);
  const steps = 1 + int(rand, 3);
  for (let step = 0; step < steps; step++) {
    const at = int(rand, Math.max(tokens.length, 1));
    switch (int(rand, 10)) {
      case 0: // delete a token
        tokens.splice(at, 1);
        break;
      case 1: // duplicate a token
        tokens.splice(at, 0, tokens[at] ?? "");
        break;
      case 2: {
        // swap two tokens
        const other = int(rand, Math.max(tokens.length, 1));
        [tokens[at], tokens[other]] = [tokens[other] ?? "", tokens[at] ?? ""];
        break;
      }
      case 3: // insert a random token
        tokens.splice(at, 0, ` ${randomToken(rand)} `);
        break;
      case 4: {
        // delete characters
        const joined = tokens.join("");
        const from = int(rand, joined.length + 1);
        tokens = tokensOf(joined.slice(0, from) + joined.slice(from + 1 + int(rand, 4)));
        break;
      }
      case 5: {
        // insert a character
        const joined = tokens.join("");
        const from = int(rand, joined.length + 1);
        tokens = tokensOf(joined.slice(0, from) + pick(rand, INJECTIONS) + joined.slice(from));
        break;
      }
      case 6: // truncate
        tokens = tokensOf(tokens.join("").slice(0, int(rand, tokens.join("").length + 1)));
        break;
      case 7: // replace a token by a table, column or literal
        tokens[at] = pick(rand, [...TABLES, ...COLUMNS, ...LITERALS]);
        break;
      case 8: // append a quote or a statement
        tokens.push(
          pick(rand, [
            "'",
            "`",
            '"',
            ";",
            "; DROP TABLE traces",
            " SETTINGS readonly = 0",
            " FORMAT CSV",
          ]),
        );
        break;
      default: {
        // a burst: the same opening token many times
        const burst = pick(rand, ["(", "NOT ", "-", "[", "(SELECT "]);
        tokens.splice(at, 0, burst.repeat(1 + int(rand, 300)));
        break;
      }
    }
  }
  return tokens.join("");
}

const GENTLE: readonly { match: RegExp; choices: readonly string[] }[] = [
  { match: /^(?:\d+(?:\.\d+)?|'[^']*')$/, choices: LITERALS },
  { match: /^(?:=|!=|<>|<|<=|>|>=)$/, choices: ["=", "!=", "<", "<=", ">", ">=", "LIKE", "IN"] },
  { match: /^(?:ASC|DESC)$/i, choices: ["ASC", "DESC", "DESC NULLS FIRST", "ASC NULLS LAST"] },
  { match: /^(?:AND|OR)$/i, choices: ["AND", "OR", "AND NOT", "OR NOT"] },
  {
    match: /^(?:LEFT|INNER|RIGHT|FULL|CROSS)$/i,
    choices: ["LEFT", "INNER", "RIGHT", "FULL", "LEFT ANY", "LEFT SEMI", "LEFT ANTI", "ASOF"],
  },
  { match: /^(?:ALL|DISTINCT)$/i, choices: ["ALL", "DISTINCT"] },
  {
    match: /^(?:traces|logs|metrics|ai_spans|http_requests|error_groups)$/,
    choices: TABLES.slice(0, 6),
  },
  {
    match:
      /^(?:timestamp|service_name|trace_id|span_id|message|duration_ms|duration_ns|level|status|value|metric_name|fingerprint)$/,
    choices: COLUMNS.filter((c) => /^[a-z_]+$/.test(c) && c !== "project_id"),
  },
  {
    match: /^(?:count|sum|avg|min|max|uniq|any|lower|length|toString|round)$/,
    choices: [
      "count",
      "sum",
      "avg",
      "min",
      "max",
      "uniq",
      "any",
      "lower",
      "length",
      "toString",
      "round",
      "toUInt8",
      "toDate",
    ],
  },
];

/** One small, mostly valid change: the kind of edit a user makes. */
function mutateGently(rand: Rand, text: string): string {
  const tokens = tokensOf(text);
  const start = int(rand, tokens.length);
  for (let k = 0; k < tokens.length; k++) {
    const at = (start + k) % tokens.length;
    const rule = GENTLE.find((g) => g.match.test(tokens[at] ?? ""));
    if (rule) {
      tokens[at] = pick(rand, rule.choices);
      return tokens.join("");
    }
  }
  return text;
}

/** Typed sample arguments: columns of the table and literals of many types. */
const ARGUMENTS = [
  "1",
  "0",
  "-1",
  "2.5",
  "1000000",
  "'x'",
  "''",
  "'a,b'",
  "'%Y-%m-%d'",
  "'UTC'",
  "'2026-01-01'",
  "'2026-01-01 10:00:00'",
  "'{\"a\":1}'",
  "'[1,'",
  "'127.0.0.1'",
  "'https://example.com/a?b=1'",
  "NULL",
  "now()",
  "today()",
  "[1, 2, 3]",
  "['a', 'b']",
  "[]",
  "(1, 'a')",
  "map('a', 1)",
  "toDateTime('2026-01-01 00:00:00')",
  "INTERVAL 1 DAY",
  "x -> x",
  "(x, y) -> x",
];
const TABLE_COLUMNS = new Map(
  TELEMETRY_TABLES.map((table) => [
    table.name,
    table.columns.map((column) => column.name).filter((name) => name !== PROJECT_COLUMN),
  ]),
);

/** `SELECT f(args…) FROM table`, f from the allow-list, args random columns and literals. */
function randomCall(rand: Rand, index: number): string {
  const def = ALLOWED_FUNCTIONS[
    index % ALLOWED_FUNCTIONS.length
  ] as (typeof ALLOWED_FUNCTIONS)[number];
  const table = pick(rand, TELEMETRY_TABLES);
  const columns = TABLE_COLUMNS.get(table.name) ?? [];
  const max = Math.min(def.maxArgs, def.minArgs + 2);
  const arity = def.minArgs + int(rand, max - def.minArgs + 1);
  const args = Array.from({ length: arity }, (_, i) =>
    def.lambda && i === 0
      ? pick(rand, ["x -> x", "x -> x > 1", "(x, y) -> x"])
      : rand() < 0.5
        ? pick(rand, columns)
        : pick(rand, ARGUMENTS),
  );
  const params = def.params
    ? `(${Array.from({ length: def.params.min + int(rand, 2) }, () => pick(rand, ["0.5", "1", "10", "'x'"])).join(", ")})`
    : "";
  const call = `${def.name}${params}(${args.join(", ")})`;
  const shape = int(rand, 4);
  if (shape === 0) return `SELECT ${call} FROM ${table.name}`;
  if (shape === 1) return `SELECT ${call}`;
  if (shape === 2)
    return `SELECT count() FROM ${table.name} WHERE ${call} = ${pick(rand, ARGUMENTS)}`;
  return `SELECT ${call} AS v FROM ${table.name} GROUP BY v ORDER BY v LIMIT 5`;
}

interface Corpus {
  randoms: string[];
  mutations: string[];
  calls: string[];
}

let corpus: Corpus | undefined;
function getCorpus(): Corpus {
  if (corpus) return corpus;
  const rand = prng(SEED);
  const randoms = Array.from({ length: RANDOM_STREAMS }, () => randomStream(rand));
  const mutations = Array.from({ length: MUTATIONS }, (_, i) =>
    i % 2 === 0 ? mutate(rand, pick(rand, SEEDS)) : mutateGently(rand, pick(rand, SEEDS)),
  );
  const calls = Array.from({ length: CALLS }, (_, i) => randomCall(rand, i));
  corpus = { randoms, mutations, calls };
  return corpus;
}

// ---------------------------------------------------------------------------------------------
// Invariants of compiled SQL.

/** The exact guarded read of a table, written out independently of the printer. */
function guardOf(table: TableDef): string {
  const columns = table.columns
    .filter((column) => column.name !== PROJECT_COLUMN)
    .map((column) => quoteIdentifier(column.name))
    .join(", ");
  const final = table.readFinal ? " FINAL" : "";
  return `(SELECT ${columns} FROM \`vigil\`.${quoteIdentifier(table.name)}${final} PREWHERE \`project_id\` = {project:String})`;
}
const GUARDS = TELEMETRY_TABLES.map(guardOf);
const QUOTED_IDENTIFIER = /`((?:[^`\\]|\\.)*)`/g;

/** Why the compiled SQL of `text` breaks the confinement rules, or undefined when it does not. */
function guardViolation(
  text: string,
  sql: string,
  params: Readonly<Record<string, string>>,
): string | undefined {
  let rest = sql;
  let guards = 0;
  for (const guard of GUARDS) {
    const parts = rest.split(guard);
    guards += parts.length - 1;
    rest = parts.join("(GUARDED)");
  }
  const analysis = analyzeTql(parseTql(text), { maxTableReferences: DEFAULT_MAX_TABLE_REFERENCES });
  if (guards !== analysis.tables.size)
    return `${analysis.tables.size} table references but ${guards} guards`;
  if (rest.includes("{project:String}")) return "the project parameter outside a guard";
  if (/\b(?:FROM|JOIN)\s+`vigil`\s*\./.test(rest))
    return "a database-qualified read outside a guard";
  const identifiers = [...rest.matchAll(QUOTED_IDENTIFIER)].map((m) =>
    (m[1] ?? "").replace(/\\(.)/g, "$1"),
  );
  if (identifiers.includes(PROJECT_COLUMN)) return "project_id as an identifier outside a guard";
  const bare = rest.replace(QUOTED_IDENTIFIER, "`…`");
  if (bare.includes(PROJECT_COLUMN)) return "project_id outside a guard";
  if (/;|--|\/\*|#/.test(bare)) return "a statement separator or comment in the SQL";
  if (/\b(?:SETTINGS|FORMAT|OUTFILE)\b/.test(bare)) return "SETTINGS, FORMAT or OUTFILE in the SQL";
  const placeholders = [...bare.matchAll(/\{[^}]*\}/g)].map((m) => m[0]);
  for (const placeholder of placeholders) {
    const name = /^\{(s\d+):String\}$/.exec(placeholder)?.[1];
    if (!name || !Object.hasOwn(params, name)) return `unexpected placeholder ${placeholder}`;
  }
  if (Object.values(params).some((value) => typeof value !== "string"))
    return "a non-string parameter";
  return undefined;
}

interface CompileOutcome {
  text: string;
  compiled: boolean;
  violation?: string;
  error?: unknown;
  ms: number;
}

function compileOne(text: string): CompileOutcome {
  const started = performance.now();
  try {
    const { sql, params } = compileTql(text, OPTIONS);
    const ms = performance.now() - started;
    const violation = guardViolation(text, sql, params);
    return { text, compiled: true, ms, ...(violation ? { violation } : {}) };
  } catch (error) {
    return { text, compiled: false, error, ms: performance.now() - started };
  }
}

/** A refusal must be a TqlError with a message and a sensible position. */
function refusalProblem(outcome: CompileOutcome): string | undefined {
  const { error } = outcome;
  if (!(error instanceof TqlError))
    return `${error instanceof Error ? error.constructor.name : typeof error}: ${String(error instanceof Error ? error.message : error).slice(0, 200)}`;
  if (error.message.length === 0) return "empty message";
  const position = error.extensions.position as { line: number; column: number } | undefined;
  if (position && (position.line < 1 || position.column < 1))
    return `bad position ${JSON.stringify(position)}`;
  return undefined;
}

let outcomes: CompileOutcome[] | undefined;
function getOutcomes(): CompileOutcome[] {
  if (!outcomes) {
    const { randoms, mutations, calls } = getCorpus();
    outcomes = [...SEEDS, ...randoms, ...mutations, ...calls].map(compileOne);
  }
  return outcomes;
}

/** Inputs that compiled, distinct, in generation order. */
function compiledInputs(): string[] {
  return [
    ...new Set(
      getOutcomes()
        .filter((o) => o.compiled)
        .map((o) => o.text),
    ),
  ];
}

/** Compiled inputs for the engine: every compiled mutation or stream, then calls up to the total. */
function engineInputs(): string[] {
  const calls = new Set(getCorpus().calls);
  const compiled = compiledInputs();
  const others = compiled.filter((text) => !calls.has(text));
  const fromCalls = compiled.filter((text) => calls.has(text));
  return [...others, ...fromCalls].slice(0, ENGINE_INPUTS);
}

const show = (text: string) => JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text);

// ---------------------------------------------------------------------------------------------

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

/** Queries that once escaped the error mapping or need it in particular; run in the engine too. */
const ENGINE_PROBES = [
  "SELECT CAST('' AS UInt8)",
  "SELECT toUInt8(trace_id) FROM traces",
  "SELECT CAST('[1,' AS Array(UInt8))",
  "SELECT CAST('a' AS FixedString(0))",
  "SELECT JSONExtract('{\"a\":1}', 'a', 'FixedString(0)')",
  "SELECT CAST(1 AS LowCardinality(UInt256))",
  "SELECT CAST('abc' AS FixedString(1))",
  "SELECT toDecimalString(1, 100)",
  "SELECT (SELECT service_name FROM traces)",
  "SELECT length(repeat('x', 100000000))",
  "SELECT arrayJoin(range(1000000000))",
  "SELECT count() FROM traces AS a, traces AS b, logs AS c, logs AS d, metrics AS e",
  "SELECT count() FROM logs WHERE CAST(if(service_name = 'fuzz-svc', '1', message) AS UInt8) = 1",
];

interface EngineFailure {
  query: string;
  kind: "internal" | "leak" | "internals-in-message";
  code: string;
  message: string;
}

function engineCode(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    /\(([A-Z][A-Z0-9_]+)\)\s*(?:\(version[^)]*\))?\s*$/.exec(text)?.[1] ??
    /Code:\s*(\d+)/.exec(text)?.[1] ??
    "?"
  );
}

const INTERNALS =
  /project_id`? = |`vigil`\.|\(SELECT `|Syntax error: failed at position|max_memory_usage|max_execution_time|readonly = 1|\{project:String\}/;

async function runAll(
  run: (query: string) => Promise<unknown>,
  queries: readonly string[],
): Promise<EngineFailure[]> {
  const failures: EngineFailure[] = [];
  for (const query of queries) {
    try {
      const result = await run(query);
      const text = JSON.stringify(result);
      for (const marker of B_MARKERS)
        if (text.includes(marker) && !query.includes(marker))
          failures.push({ query, kind: "leak", code: "-", message: `result holds ${marker}` });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === "internal") {
        failures.push({
          query,
          kind: "internal",
          code: engineCode(error),
          message: (error instanceof Error ? error.message : String(error)).slice(0, 200),
        });
        continue;
      }
      for (const marker of B_MARKERS)
        if (error.message.includes(marker) && !query.includes(marker))
          failures.push({
            query,
            kind: "leak",
            code: error.code,
            message: error.message.slice(0, 200),
          });
      const internals = INTERNALS.exec(error.message)?.[0];
      if ((internals && !query.includes(internals)) || error.message.includes(PROJECT_A))
        failures.push({
          query,
          kind: "internals-in-message",
          code: error.code,
          message: error.message.slice(0, 300),
        });
    }
  }
  return failures;
}

function report(failures: readonly EngineFailure[]): string {
  const byCode = new Map<string, EngineFailure[]>();
  for (const failure of failures) {
    const key = `${failure.kind} ${failure.code}`;
    byCode.set(key, [...(byCode.get(key) ?? []), failure]);
  }
  return [...byCode.entries()]
    .map(
      ([key, list]) =>
        `${key} ×${list.length}:\n${list
          .slice(0, 5)
          .map((f) => `    ${show(f.query)}\n      → ${f.message}`)
          .join("\n")}`,
    )
    .join("\n");
}

describe("TQL fuzzing: the engine", () => {
  const dir = makeTempDir("vigil-tql-fuzz-");
  let executor: TelemetryExecutor;
  let service: TqlService;

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "vigil" });
    await ensureTelemetrySchema(executor, { retentionDays: 3650 });
    const ts = new Date(Date.now() - 60_000).toISOString().replace("T", " ").replace("Z", "");
    const both = (row: (project: string, i: number) => Record<string, unknown>) =>
      [PROJECT_B, PROJECT_A, PROJECT_B, PROJECT_A].map((project, i) => row(project, i));
    const svc = (project: string) => (project === PROJECT_A ? "fuzz-svc" : "victim-secret-svc");
    const msg = (project: string) => (project === PROJECT_A ? "fuzz message" : "VICTIM-SECRET log");
    // Both projects in one insert, as the batch writer does: their rows share parts.
    await executor.insert(
      "traces",
      both((p, i) => ({
        project_id: p,
        timestamp: ts,
        trace_id: `${i}`.padStart(32, "a"),
        span_id: `${i}`.padStart(16, "b"),
        service_name: svc(p),
        operation_name: "op",
        status: i % 2 ? "ok" : "error",
        duration_ms: 10 * i,
        events_name: ["exception"],
      })),
    );
    await executor.insert(
      "logs",
      both((p, i) => ({
        project_id: p,
        timestamp: ts,
        trace_id: `${i}`.padStart(32, "a"),
        service_name: svc(p),
        level: "error",
        message: msg(p),
      })),
    );
    await executor.insert(
      "metrics",
      both((p) => ({
        project_id: p,
        timestamp: ts,
        metric_name: svc(p),
        metric_type: "gauge",
        value: 1,
      })),
    );
    await executor.insert(
      "error_groups",
      both((p, i) => ({
        project_id: p,
        fingerprint: `fp${i}`,
        message: msg(p),
        services: [svc(p)],
        first_seen: ts,
        last_seen: ts,
        version: 1,
      })),
    );
    service = createTqlService({
      executor,
      limits: { maxExecutionSeconds: 2, maxMemoryBytes: 256 * 1024 * 1024, maxRowsToRead: 1e9 },
    });
  });
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  it(`maps every engine error of ${ENGINE_INPUTS}+ compiled fuzz inputs to a query error or a limit`, {
    timeout: 240_000,
  }, async () => {
    const inputs = [...engineInputs(), ...ENGINE_PROBES];
    expect(inputs.length).toBeGreaterThanOrEqual(400);
    // Most of them reach the engine through something other than the generated calls.
    const calls = new Set(getCorpus().calls);
    expect(inputs.filter((text) => !calls.has(text)).length).toBeGreaterThan(200);
    const started = performance.now();
    const failures = await runAll((query) => service.query(PROJECT_A, query), inputs);
    console.info(
      `engine: ${inputs.length} queries in ${Math.round(performance.now() - started)} ms, ${failures.length} failures`,
    );
    expect(failures, `\n${report(failures)}`).toEqual([]);
  });
});

describe("TQL fuzzing: over HTTP", () => {
  const dir = makeTempDir("vigil-tql-fuzz-http-");
  let http: TestService;
  let key: string;

  beforeAll(async () => {
    http = await startTestService(dir.path, {
      VIGIL_RATE_LIMIT_PER_MINUTE: "100000",
      VIGIL_TQL_MAX_EXECUTION_SECONDS: "2",
      VIGIL_TQL_MAX_MEMORY_BYTES: String(256 * 1024 * 1024),
    });
    const setup = await initialize(http.deps.domain, {
      email: "fuzz@example.com",
      password: "correct horse battery",
    });
    key = setup.apiKey ?? "";
  });
  afterAll(async () => {
    await http?.stop();
    dir.remove();
  });

  it(`answers ${HTTP_INPUTS} fuzz inputs with 200 JSON or a 4xx problem, never a 5xx`, {
    timeout: 240_000,
  }, async () => {
    const rand = prng(SEED ^ 0x5eed);
    const compiled = compiledInputs();
    const refused = getOutcomes()
      .filter((o) => !o.compiled)
      .map((o) => o.text);
    const inputs: string[] = [];
    for (let i = 0; i < HTTP_INPUTS / 2; i++)
      inputs.push(pick(rand, compiled), pick(rand, refused));
    inputs.push(...ENGINE_PROBES, "", " ", "\u0000", "x".repeat(50_001));
    const problems: string[] = [];
    for (const query of inputs) {
      const response = await http.fetch("/v1/tql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ query }),
      });
      const text = await response.text();
      const type = response.headers.get("content-type") ?? "";
      if (response.status === 200) {
        const body = JSON.parse(text) as Record<string, unknown>;
        if (
          !type.startsWith("application/json") ||
          !Array.isArray(body.rows) ||
          !Array.isArray(body.columns)
        )
          problems.push(`200 without a result for ${show(query)}: ${text.slice(0, 200)}`);
        continue;
      }
      if (response.status < 400 || response.status >= 500) {
        problems.push(`${response.status} for ${show(query)}: ${text.slice(0, 200)}`);
        continue;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      const missing = ["type", "title", "status", "detail", "code", "requestId"].filter(
        (field) => !(field in body),
      );
      if (
        !type.startsWith("application/problem+json") ||
        missing.length > 0 ||
        body.status !== response.status
      )
        problems.push(
          `malformed ${response.status} problem (missing ${missing.join(", ")}) for ${show(query)}: ${text.slice(0, 200)}`,
        );
    }
    expect(inputs.length).toBeGreaterThanOrEqual(HTTP_INPUTS);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});
