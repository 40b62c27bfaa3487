import { mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { quoteIdentifier } from "../executor.js";
import { encodeNativeBlock, nativePlan } from "../native/block.js";
import { stringLiteral } from "./session-params.js";

type Row = Readonly<Record<string, unknown>>;

/** An insert ready to run: its statement, and the removal of its spooled block afterwards. */
export interface SpooledInsert {
  sql: string;
  done(): void;
}

/**
 * Inserts into chDB in ClickHouse's Native format. chDB's insert API takes text formats only, so
 * each batch is written as one Native block to a spool file beside the data and inserted with
 * `INSERT … SELECT * FROM file(…, 'Native')`: the engine reads columns as they are instead of
 * parsing text, a third of its CPU per row of JSONCompactEachRow (ADR 0015). Column types come
 * from the engine, cached until the next DDL statement.
 */
export class NativeInserts {
  private readonly spool: string;
  private readonly types = new Map<string, Promise<ReadonlyMap<string, string>>>();
  private sequence = 0;

  constructor(
    dataPath: string,
    private readonly database: string,
    /** Reads `name, type` rows of system.columns on the write path. */
    private readonly columnsOf: (table: string) => Promise<{ name: string; type: string }[]>,
  ) {
    this.spool = join(dataPath, "vigil-insert-spool");
    // Blocks left by a process that stopped mid-insert were never acknowledged: nothing to keep.
    rmSync(this.spool, { recursive: true, force: true });
    mkdirSync(this.spool, { recursive: true });
  }

  /** Forgets cached column types (after DDL, which may add columns). */
  invalidate(): void {
    this.types.clear();
  }

  private typesOf(table: string): Promise<ReadonlyMap<string, string>> {
    let types = this.types.get(table);
    if (!types) {
      types = this.columnsOf(table).then((rows) => new Map(rows.map((r) => [r.name, r.type])));
      this.types.set(table, types);
      types.catch(() => this.types.delete(table));
    }
    return types;
  }

  /**
   * Encodes and spools the rows; undefined when a column's type is not one the encoder writes
   * (the caller inserts them as text). A value the column cannot hold throws RefusedValueError.
   */
  async prepare(table: string, rows: readonly Row[]): Promise<SpooledInsert | undefined> {
    const columns = Object.keys(rows[0] ?? {});
    const plan = nativePlan(columns, await this.typesOf(table));
    if (!plan) return undefined;
    const file = join(this.spool, `${++this.sequence}.native`);
    // One synchronous write into the page cache: cheaper than the promise API's round trips for
    // a file that lives for one statement.
    writeFileSync(file, encodeNativeBlock(plan, rows));
    const target = `${quoteIdentifier(this.database)}.${quoteIdentifier(table)}`;
    return {
      sql: `INSERT INTO ${target} (${columns.map(quoteIdentifier).join(", ")}) SELECT * FROM file(${stringLiteral(file)}, 'Native')`,
      done: () => unlinkSync(file),
    };
  }
}
