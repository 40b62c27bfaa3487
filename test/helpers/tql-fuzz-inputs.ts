/**
 * Seeded, deterministic generation of TQL fuzz inputs: random token streams, mutations of the seed
 * queries (rough and gentle) and calls of allow-listed functions with random arguments. The same
 * seed gives the same inputs.
 */
import { PROJECT_COLUMN, TELEMETRY_TABLES } from "../../src/telemetry/tables.js";
import { FUNCTIONS as ALLOWED_FUNCTIONS } from "../../src/tql/functions.js";
import {
  COLUMNS,
  FUNCTIONS,
  GENTLE,
  INJECTIONS,
  KEYWORDS,
  LITERALS,
  OPERATORS,
  SEEDS,
  SEPARATORS,
  TABLES,
  WEIRD,
} from "./tql-fuzz-vocabulary.js";

export const SEED = 0x7e51_2026;
export const RANDOM_STREAMS = 5_000;
/** Half rough (tokens and characters), half gentle (a literal, operator, name or keyword swapped). */
export const MUTATIONS = 3_000;
/** Calls of allow-listed functions with random arguments: they reach the most engine errors. */
export const CALLS = 3_000;

/** mulberry32: a small, fast PRNG with a 32-bit state. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = () => number;
export const pick = <T>(rand: Rand, items: readonly T[]): T =>
  items[Math.floor(rand() * items.length)] as T;
export const int = (rand: Rand, max: number) => Math.floor(rand() * max);

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

export function randomStream(rand: Rand): string {
  const parts: string[] = rand() < 0.7 ? ["SELECT"] : [];
  const length = 1 + int(rand, 30);
  for (let i = 0; i < length; i++) parts.push(randomToken(rand));
  return parts.map((part) => `${part}${pick(rand, SEPARATORS)}`).join("");
}

function tokensOf(text: string): string[] {
  return text.split(/(\s+|[(),;[\]])/).filter((part) => part.length > 0);
}

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

export interface Corpus {
  randoms: string[];
  mutations: string[];
  calls: string[];
}

let corpus: Corpus | undefined;
export function getCorpus(): Corpus {
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
