import type { Logger } from "pino";
import type { ExploreSource } from "../../contracts/explore-filters.js";
import type { TelemetryExecutor } from "../../telemetry/executor.js";
import { CATALOG_TABLE, type CatalogRow } from "./attribute-catalog.js";

// The attribute catalog's counts of what this node wrote, held for a moment and written together
// (docs/explore.md, "Attribute catalog"). Written with every write, they cost an insert statement
// and two small parts per write, with their merges: measured end to end, a sixth of the server's
// CPU per span (issue 37). Held here, they are written at most once per FLUSH_MS, and this node's
// catalog reads add the counts not written yet: a field or value is suggested, with its count,
// as soon as its rows are acknowledged. A crash loses at most FLUSH_MS of counts, never a row.

/** Rows carrying a field or a value, and how many of those values are numbers. */
export interface CatalogCount {
  rows: number;
  numeric: number;
}

/** Which counts a read asks for: one project's source over whole UTC days [fromDay, toDay). */
export interface CatalogScope {
  projectId: string;
  source: ExploreSource;
  /** `YYYY-MM-DD`. */
  fromDay: string;
  toDay: string;
}

/** The counts a node has not written yet, as its catalog reads see them. */
export interface UnwrittenCounts {
  /** Per field of the scope. */
  fields(scope: CatalogScope): Map<string, CatalogCount>;
  /** Per value of one field of the scope ('' included: the caller drops what it never shows). */
  values(scope: CatalogScope, field: string): Map<string, CatalogCount>;
}

/** The catalog's reads on this node: `read` runs with the counts not written yet, none moving. */
export interface UnwrittenCatalog {
  read<T>(body: (unwritten: UnwrittenCounts) => Promise<T>): Promise<T>;
}

export interface CatalogBufferOptions {
  /** The longest counts wait before they are written. */
  flushMs: number;
  /** Catalog rows held beyond which they are written at once. */
  maxRows: number;
  logger: Logger;
}

function addCounts(into: Map<string, CatalogCount>, key: string, rows: number, numeric: number) {
  const count = into.get(key);
  if (count) {
    count.rows += rows;
    count.numeric += numeric;
  } else into.set(key, { rows, numeric });
}

/**
 * Holds catalog rows, summed by key, per project and source; writes them all in one insert. A
 * read and a write of the held rows never overlap: the rows a read adds are exactly those its
 * query cannot see. A failed write keeps its rows for the next one.
 */
export class CatalogBuffer implements UnwrittenCatalog {
  /** `project \0 source` → `field \0 value \0 day` → row. */
  private held = new Map<string, Map<string, CatalogRow>>();
  private size = 0;
  private writing: Promise<void> | undefined;
  private readers = 0;
  private readersDone: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly executor: TelemetryExecutor,
    private readonly options: CatalogBufferOptions,
  ) {}

  /**
   * Adds the catalog rows of a write (catalogRows); they are written within flushMs, at once past
   * maxRows, and after close each add at once.
   */
  add(rows: readonly CatalogRow[]): void {
    this.hold(rows);
    if (this.closed || this.size >= this.options.maxRows) void this.flush();
    else this.writeLater();
  }

  private hold(rows: readonly CatalogRow[]): void {
    for (const row of rows) {
      const scope = `${row.project_id}\u0000${row.signal}`;
      let rowsOfScope = this.held.get(scope);
      if (!rowsOfScope) {
        rowsOfScope = new Map();
        this.held.set(scope, rowsOfScope);
      }
      const key = `${row.field}\u0000${row.value}\u0000${row.day}`;
      const held = rowsOfScope.get(key);
      if (held) {
        held.row_count += row.row_count;
        held.numeric_count += row.numeric_count;
      } else {
        rowsOfScope.set(key, { ...row });
        this.size++;
      }
    }
  }

  private writeLater(): void {
    if (this.size === 0 || this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  async read<T>(body: (unwritten: UnwrittenCounts) => Promise<T>): Promise<T> {
    while (this.writing) await this.writing.catch(() => undefined);
    this.readers++;
    try {
      return await body(this.view());
    } finally {
      this.readers--;
      if (this.readers === 0) this.readersDone?.();
    }
  }

  /** Writes what is held now (a write in progress first); resolves once it is written or kept. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.size === 0) return;
    this.writing = this.write().finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }

  /** Writes what is held, and from then on each add at once (at shutdown); never retries. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.readers > 0)
      await new Promise<void>((resolve) => {
        this.readersDone = resolve;
      });
    this.readersDone = undefined;
    const taken = this.held;
    this.held = new Map();
    this.size = 0;
    const rows = [...taken.values()].flatMap((rowsOfScope) => [...rowsOfScope.values()]);
    try {
      await this.executor.insert(CATALOG_TABLE, rows);
    } catch (error) {
      // Retried flushMs on while running, kept up to a bound: counts beyond it are dropped rather
      // than held without end. At close there is no later write: the counts are dropped.
      const kept = !this.closed && this.size + rows.length <= this.options.maxRows * 2;
      this.options.logger.warn(
        { err: error, rows: rows.length },
        kept
          ? "attribute catalog counts not written; kept for the next write"
          : "attribute catalog counts not written; dropped",
      );
      if (kept) {
        this.hold(rows);
        this.writeLater();
      }
    }
  }

  private view(): UnwrittenCounts {
    const inScope = (scope: CatalogScope) =>
      [...(this.held.get(`${scope.projectId}\u0000${scope.source}`)?.values() ?? [])].filter(
        (row) => row.day >= scope.fromDay && row.day < scope.toDay,
      );
    return {
      fields: (scope) => {
        const out = new Map<string, CatalogCount>();
        for (const row of inScope(scope))
          addCounts(out, row.field, row.row_count, row.numeric_count);
        return out;
      },
      values: (scope, field) => {
        const out = new Map<string, CatalogCount>();
        for (const row of inScope(scope))
          if (row.field === field) addCounts(out, row.value, row.row_count, row.numeric_count);
        return out;
      },
    };
  }
}
