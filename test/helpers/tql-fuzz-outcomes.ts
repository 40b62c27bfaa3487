/**
 * What the TQL fuzz tests check of the compiler's output: every input compiles to SQL that reads
 * each table only through its project guard, or is refused with a TqlError; the compiled inputs
 * and the probes the engine and HTTP tests run.
 */
import { quoteIdentifier } from "../../src/telemetry/executor.js";
import { PROJECT_COLUMN, type TableDef, TELEMETRY_TABLES } from "../../src/telemetry/tables.js";
import { analyzeTql } from "../../src/tql/analyzer.js";
import { compileTql, DEFAULT_MAX_TABLE_REFERENCES } from "../../src/tql/compile.js";
import { parseTql } from "../../src/tql/parser.js";
import { TqlError } from "../../src/tql/tql-errors.js";
import { getCorpus } from "./tql-fuzz-inputs.js";
import { SEEDS } from "./tql-fuzz-vocabulary.js";

export const ENGINE_INPUTS = 3000;
export const OPTIONS = { database: "vigil", rowCap: 10_001 } as const;

/** The exact guarded read of a table, written out independently of the printer. */
export function guardOf(table: TableDef): string {
  const columns = table.columns
    .filter((column) => column.name !== PROJECT_COLUMN)
    .map((column) => quoteIdentifier(column.name))
    .join(", ");
  const final = table.readFinal ? " FINAL" : "";
  return `(SELECT ${columns} FROM \`vigil\`.${quoteIdentifier(table.name)}${final} PREWHERE \`project_id\` = {project:String})`;
}
export const GUARDS = TELEMETRY_TABLES.map(guardOf);
export const QUOTED_IDENTIFIER = /`((?:[^`\\]|\\.)*)`/g;

/** Why the compiled SQL of `text` breaks the confinement rules, or undefined when it does not. */
export function guardViolation(
  text: string,
  sql: string,
  params: Readonly<Record<string, unknown>>,
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

export interface CompileOutcome {
  text: string;
  compiled: boolean;
  violation?: string;
  error?: unknown;
  ms: number;
}

export function compileOne(text: string): CompileOutcome {
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
export function refusalProblem(outcome: CompileOutcome): string | undefined {
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
export function getOutcomes(): CompileOutcome[] {
  if (!outcomes) {
    const { randoms, mutations, calls } = getCorpus();
    outcomes = [...SEEDS, ...randoms, ...mutations, ...calls].map(compileOne);
  }
  return outcomes;
}

/** Inputs that compiled, distinct, in generation order. */
export function compiledInputs(): string[] {
  return [
    ...new Set(
      getOutcomes()
        .filter((o) => o.compiled)
        .map((o) => o.text),
    ),
  ];
}

/** Compiled inputs for the engine: every compiled mutation or stream, then calls up to the total. */
export function engineInputs(): string[] {
  const calls = new Set(getCorpus().calls);
  const compiled = compiledInputs();
  const others = compiled.filter((text) => !calls.has(text));
  const fromCalls = compiled.filter((text) => calls.has(text));
  return [...others, ...fromCalls].slice(0, ENGINE_INPUTS);
}

export const show = (text: string) =>
  JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text);

/** Queries that once escaped the error mapping or need it in particular; run in the engine too. */
export const ENGINE_PROBES = [
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
