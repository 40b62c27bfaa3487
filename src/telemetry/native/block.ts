import { type ColumnCodec, codecFor } from "./codecs.js";
import { NativeWriter } from "./writer.js";

/** One column of a block: its name and how its values are written. */
export interface NativeColumn {
  name: string;
  codec: ColumnCodec;
}

/**
 * How to write rows with these keys into a table whose columns have these types, or undefined
 * when a key is not a column or a type is not one the encoder writes (the caller falls back to
 * a text format).
 */
export function nativePlan(
  columns: readonly string[],
  types: ReadonlyMap<string, string>,
): NativeColumn[] | undefined {
  const plan: NativeColumn[] = [];
  for (const name of columns) {
    const type = types.get(name);
    const codec = type === undefined ? undefined : codecFor(type);
    if (!codec) return undefined;
    plan.push({ name, codec });
  }
  return plan;
}

/**
 * Rows (objects keyed by column name) as one block of ClickHouse's Native format: the column and
 * row counts, then each column whole (name, type, data). Columnar and binary, it is what the
 * engine parses cheapest (ADR 0015).
 */
export function encodeNativeBlock(
  plan: readonly NativeColumn[],
  rows: readonly Readonly<Record<string, unknown>>[],
): Buffer {
  const out = new NativeWriter(Math.max(4096, rows.length * 512));
  out.varUInt(plan.length);
  out.varUInt(rows.length);
  const values: unknown[] = new Array(rows.length);
  for (const { name, codec } of plan) {
    out.string(name);
    out.string(codec.type);
    for (let i = 0; i < rows.length; i++) values[i] = (rows[i] as Record<string, unknown>)[name];
    codec.write(out, values);
  }
  return out.bytes();
}
