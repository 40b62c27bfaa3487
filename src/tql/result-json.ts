import type { ResultColumn } from "../telemetry/executor.js";

/**
 * The one rule for 64-bit (and wider) integers in TQL's JSON: a value is a JSON number when it
 * lies within ±(2^53 − 1), where every JavaScript client reads it exactly, and a string of
 * decimal digits otherwise, so no digit is ever lost. The engine is asked to quote every such
 * integer; this module turns the safe ones back into numbers, wherever they sit (arrays, maps,
 * tuples, Nullable).
 */

type Convert = (value: unknown) => unknown;

interface TypeTree {
  name: string;
  args: TypeTree[];
  /** Element name inside a named Tuple. */
  field?: string;
}

const WIDE_INTEGERS = new Set(["Int64", "UInt64", "Int128", "UInt128", "Int256", "UInt256"]);
const INTEGER_TEXT = /^-?\d+$/;

export function toJsonRows(columns: readonly ResultColumn[], rows: unknown[][]): unknown[][] {
  const converters = columns.map((column) => converterFor(parseTypeName(column.type)));
  if (converters.every((convert) => convert === undefined)) return rows;
  return rows.map((row) =>
    row.map((value, index) => {
      const convert = converters[index];
      return convert ? convert(value) : value;
    }),
  );
}

function wideInteger(value: unknown): unknown {
  if (typeof value !== "string" || !INTEGER_TEXT.test(value)) return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

/** A converter for values of the type, or undefined when they need none. */
function converterFor(type: TypeTree): Convert | undefined {
  // Intervals are Int64 underneath and quoted like them.
  if (WIDE_INTEGERS.has(type.name) || type.name.startsWith("Interval")) return wideInteger;
  const [first, second] = type.args;
  if ((type.name === "Nullable" || type.name === "LowCardinality") && first) {
    const inner = converterFor(first);
    return inner && ((value) => (value === null ? null : inner(value)));
  }
  if (type.name === "Array" && first) {
    const inner = converterFor(first);
    return inner && ((value) => (Array.isArray(value) ? value.map(inner) : value));
  }
  if (type.name === "Map" && second) {
    const inner = converterFor(second);
    return (
      inner &&
      ((value) =>
        value && typeof value === "object" && !Array.isArray(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inner(v)]))
          : value)
    );
  }
  if (type.name === "Tuple") {
    const inner = type.args.map(converterFor);
    if (inner.every((convert) => convert === undefined)) return undefined;
    return (value) => {
      if (Array.isArray(value)) return value.map((v, i) => inner[i]?.(v) ?? v);
      if (value && typeof value === "object")
        return Object.fromEntries(
          Object.entries(value).map(([k, v], i) => [k, inner[i] ? inner[i](v) : v]),
        );
      return value;
    };
  }
  return undefined;
}

/** Parses a ClickHouse type name such as `Map(LowCardinality(String), Array(UInt64))`. */
export function parseTypeName(text: string): TypeTree {
  let i = 0;
  const skipSpace = () => {
    while (text[i] === " ") i++;
  };
  const word = () => {
    skipSpace();
    const start = i;
    while (i < text.length && /[A-Za-z0-9_]/.test(text[i] as string)) i++;
    return text.slice(start, i);
  };
  const skipQuoted = () => {
    i++;
    while (i < text.length && text[i] !== "'") i += text[i] === "\\" ? 2 : 1;
    i++;
  };
  const type = (): TypeTree => {
    let name = word();
    let field: string | undefined;
    skipSpace();
    // Named tuple elements: `name Type`.
    if (/[A-Za-z_]/.test(text[i] ?? "")) {
      field = name;
      name = word();
      skipSpace();
    }
    const args: TypeTree[] = [];
    if (text[i] === "(") {
      i++;
      while (i < text.length && text[i] !== ")") {
        skipSpace();
        if (text[i] === "'") skipQuoted();
        else if (/[A-Za-z_]/.test(text[i] ?? "")) args.push(type());
        else while (i < text.length && !",)".includes(text[i] as string)) i++;
        skipSpace();
        if (text[i] === ",") i++;
      }
      i++;
    }
    return field === undefined ? { name, args } : { name, args, field };
  };
  return type();
}
