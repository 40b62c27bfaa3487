import { CompiledQuery, createQueryId, type Kysely, SqliteAdapter } from "kysely";
import type { MetaSchema } from "../schema.js";
import { sqliteDirectOf } from "../sqlite-direct.js";

/**
 * Hot statements as SQL text with their parameters (the webhook queue's, several per delivery),
 * and what repositories share about the two engines. Measured: Kysely's builder adds 10–20 µs to a one-row statement and 2–3 µs per
 * row of a multi-row one, its `sql` fragments 5 µs per row, while SQLite writes a row in ~8 µs;
 * text costs ~0.5 µs per row. Placeholders are the engine's own (`?` on SQLite, `$1…` on
 * PostgreSQL), so SQLite reuses a prepared statement for each shape of text.
 */

/** Collects one statement's parameters, answering each with its placeholder. */
export interface Parameters {
  (value: unknown): string;
  readonly values: unknown[];
  /** SQLite (else PostgreSQL): for what the two spell differently. */
  readonly sqlite: boolean;
}

/** Whether the store behind `db` is SQLite (else PostgreSQL). */
export const isSqlite = (db: Kysely<MetaSchema>): boolean =>
  db.getExecutor().adapter instanceof SqliteAdapter;

/** Adds a parameter to `this` statement's values; answers its placeholder. */
function addParameter(this: { values: unknown[]; sqlite: boolean }, value: unknown): string {
  this.values.push(value);
  return this.sqlite ? "?" : `$${this.values.length}`;
}

export function parametersFor(db: Kysely<MetaSchema>): Parameters {
  const state = { values: [] as unknown[], sqlite: isSqlite(db) };
  // Bound to one function, not a closure per statement (docs/monitors.md, "Hot functions").
  return Object.assign(addParameter.bind(state), state);
}

/** The operation node every statement run as text carries (the drivers read only its text). */
const TEXT_NODE = CompiledQuery.raw("").query;

/**
 * Runs SQL text built with `parameters`; resolves with its rows and how many rows it changed.
 * The compiled query is made here rather than by CompiledQuery.raw, whose frozen node per
 * statement cost ~15 µs of CPU each (measured in a monitor check's five statements).
 */
export async function runStatement<Row>(
  db: Kysely<MetaSchema>,
  text: string,
  parameters: Parameters,
): Promise<{ rows: Row[]; changed: number }> {
  // SQLite at top level, while no transaction holds the connection: at once (sqlite-direct.ts).
  const direct = parameters.sqlite ? sqliteDirectOf(db) : undefined;
  if (direct?.idle()) return direct.run<Row>(text, parameters.values);
  const result = await db.executeQuery<Row>({
    sql: text,
    parameters: parameters.values,
    query: TEXT_NODE,
    queryId: createQueryId(),
  });
  return { rows: result.rows, changed: Number(result.numAffectedRows ?? 0) };
}

/** `rows` in slices of at most `size` (statements stay inside both engines' parameter limits). */
export function* slices<T>(rows: readonly T[], size: number): Generator<readonly T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/**
 * Splits items into rounds in which each key occurs at most once, keeping their order: a
 * multi-row UPDATE applies one source row per target row, so a second outcome for the same
 * delivery goes in the next round and meets the state the first one left.
 */
export function distinctRounds<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const rounds: T[][] = [];
  const seen: Set<string>[] = [];
  for (const item of items) {
    const k = key(item);
    let round = seen.findIndex((keys) => !keys.has(k));
    if (round === -1) {
      round = rounds.length;
      rounds.push([]);
      seen.push(new Set());
    }
    rounds[round]?.push(item);
    seen[round]?.add(k);
  }
  return rounds;
}
