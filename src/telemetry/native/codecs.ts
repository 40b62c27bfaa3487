import { RefusedValueError } from "../executor.js";
import { UnixTime } from "../unix-time.js";
import type { NativeWriter } from "./writer.js";

/**
 * Column codecs of ClickHouse's Native format, one per column type Vigil's tables use, chosen by
 * the type's name from a registry. Each takes the JavaScript values the mappers put in rows (the
 * same values the JSON insert sends) and writes the column's data. A value the type cannot hold
 * is refused with the ClickHouse error a text insert of it would get, so the batch writer treats
 * it as the same "refused data" (400, only the guilty request fails).
 */
export interface ColumnCodec {
  /** The type named in the block's header; the engine converts it to the column's type. */
  readonly type: string;
  write(out: NativeWriter, values: readonly unknown[]): void;
  /** Writes one value, for types whose values are written one by one (not Array or Map). */
  readonly one?: (out: NativeWriter, value: unknown) => void;
}

const TWO_32 = 2 ** 32;

const refuse = (code: string, type: string, value: unknown) =>
  new RefusedValueError(
    code,
    `Cannot store ${JSON.stringify(String(value)).slice(0, 80)} in ${type}`,
  );

function stringOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** An integer in [min, max] from a number, decimal text, a boolean, or null (0). */
function integer(value: unknown, type: string, min: number, max: number): number {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^-?\d+$/.test(value)
        ? Number(value)
        : typeof value === "boolean"
          ? Number(value)
          : value === null || value === undefined
            ? 0
            : Number.NaN;
  if (!Number.isInteger(n)) throw refuse("CANNOT_PARSE_NUMBER", type, value);
  if (n < min || n > max) throw refuse("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE", type, value);
  return n;
}

function float(value: unknown): number {
  if (typeof value === "number") return value;
  if (value === null || value === undefined) return 0;
  const text = String(value).trim().toLowerCase();
  if (text === "nan") return Number.NaN;
  if (text === "inf" || text === "+inf") return Number.POSITIVE_INFINITY;
  if (text === "-inf") return Number.NEGATIVE_INFINITY;
  const n = text === "" ? Number.NaN : Number(text);
  if (Number.isNaN(n)) throw refuse("CANNOT_PARSE_NUMBER", "Float64", value);
  return n;
}

function uint64Of(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : undefined;
  if (typeof value === "string") return /^\d{1,20}$/.test(value) ? BigInt(value) : undefined;
  return value === null || value === undefined ? 0n : undefined;
}

function writeUInt64(out: NativeWriter, value: unknown): void {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) {
    out.words64(value % TWO_32, Math.floor(value / TWO_32));
    return;
  }
  const big = uint64Of(value);
  if (big === undefined) throw refuse("CANNOT_PARSE_NUMBER", "UInt64", value);
  if (big < 0n || big >= 1n << 64n)
    throw refuse("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE", "UInt64", value);
  out.bigUInt64(big);
}

const TIME_TEXT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z?$/;

function digitsOnly(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Whole seconds and the fraction's digits of `seconds[.fraction]` or calendar UTC text. */
function textTime(text: string): [number, string] | undefined {
  const dot = text.indexOf(".");
  const whole = dot < 0 ? text : text.slice(0, dot);
  const fraction = dot < 0 ? "" : text.slice(dot + 1);
  if (whole.length > 0 && whole.length <= 12 && digitsOnly(whole) && digitsOnly(fraction))
    return [Number(whole), fraction];
  const calendar = TIME_TEXT.exec(text);
  if (!calendar) return undefined;
  const [, y, mo, d, h, mi, s, digits = ""] = calendar;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  return [ms / 1000, digits];
}

function numberTime(value: number, precision: number): [number, string] | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const seconds = Math.floor(value);
  return [
    seconds,
    String(Math.round((value - seconds) * 10 ** precision)).padStart(precision, "0"),
  ];
}

/**
 * A time as whole seconds and a fraction in units of 10^-precision s: from a UnixTime (the
 * mappers' form), `seconds[.fraction]` or `YYYY-MM-DD hh:mm:ss[.fraction]` UTC text, or a number
 * of seconds.
 */
function timeParts(value: unknown, type: string, precision: number): [number, number] {
  if (value instanceof UnixTime)
    return [
      value.seconds,
      precision === 9 ? value.nanos : Math.floor(value.nanos / 10 ** (9 - precision)),
    ];
  const parts =
    typeof value === "string"
      ? textTime(value)
      : typeof value === "number"
        ? numberTime(value, precision)
        : undefined;
  if (!parts) throw refuse("CANNOT_PARSE_DATETIME", type, value);
  const [seconds, digits] = parts;
  if (!(seconds >= 0 && seconds < TWO_32))
    throw refuse("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE", type, value);
  const ticks =
    precision === 0
      ? 0
      : digits.length === precision
        ? Number(digits)
        : Number(digits.padEnd(precision, "0").slice(0, precision));
  return [seconds, ticks];
}

/**
 * seconds * 10^p + ticks as an Int64, exact without BigInt: 10^p = 5^p * 2^p, and
 * seconds * 5^p stays below 2^53 for every second before 2106 at p <= 9.
 */
function writeTicks(out: NativeWriter, seconds: number, ticks: number, precision: number): void {
  const scaled = seconds * 5 ** precision;
  const shift = 2 ** precision;
  const low = (scaled % TWO_32) * shift + ticks;
  out.words64(low % TWO_32, Math.floor(scaled / TWO_32) * shift + Math.floor(low / TWO_32));
}

/** A codec that writes each value on its own. */
const scalar = (type: string, one: (out: NativeWriter, value: unknown) => void): ColumnCodec => ({
  type,
  one,
  write(out, values) {
    for (let i = 0; i < values.length; i++) one(out, values[i]);
  },
});

const uint = (type: string, bits: 8 | 16 | 32): ColumnCodec => {
  const max = 2 ** bits - 1;
  const put = bits === 8 ? "uint8" : bits === 16 ? "uint16" : "uint32";
  return scalar(type, (out, v) => out[put](integer(v, type, 0, max)));
};

/** Writes cumulative UInt64 end offsets, one per value, from each value's length. */
function writeOffsets(
  out: NativeWriter,
  values: readonly unknown[],
  lengthOf: (value: unknown) => number,
): void {
  let end = 0;
  for (let i = 0; i < values.length; i++) {
    end += lengthOf(values[i]);
    out.words64(end % TWO_32, Math.floor(end / TWO_32));
  }
}

function arrayCodec(element: ColumnCodec): ColumnCodec {
  const type = `Array(${element.type})`;
  const lengthOf = (value: unknown): number => {
    if (value === null || value === undefined) return 0;
    if (!Array.isArray(value)) throw refuse("TYPE_MISMATCH", type, value);
    return value.length;
  };
  return {
    type,
    write(out, values) {
      writeOffsets(out, values, lengthOf);
      const items: unknown[] = [];
      for (const value of values)
        if (value) for (const item of value as unknown[]) items.push(item);
      element.write(out, items);
    },
  };
}

/**
 * Map(K, V) is Array(Tuple(K, V)) on the wire: offsets, then every key, then every value. Keys
 * and values are written straight from each map, in its own key order, with no arrays between.
 */
function mapCodec(key: ColumnCodec, value: ColumnCodec): ColumnCodec | undefined {
  const { one: writeKey } = key;
  const { one: writeValue } = value;
  if (!writeKey || !writeValue) return undefined;
  const type = `Map(${key.type}, ${value.type})`;
  const lengthOf = (map: unknown): number => {
    if (map === null || map === undefined) return 0;
    if (typeof map !== "object" || Array.isArray(map)) throw refuse("TYPE_MISMATCH", type, map);
    let n = 0;
    for (const name in map) if (Object.hasOwn(map, name)) n++;
    return n;
  };
  return {
    type,
    write(out, values) {
      writeOffsets(out, values, lengthOf);
      for (const map of values)
        if (map) for (const name in map) if (Object.hasOwn(map, name)) writeKey(out, name);
      for (const map of values) {
        if (!map) continue;
        const record = map as Record<string, unknown>;
        for (const name in record) if (Object.hasOwn(record, name)) writeValue(out, record[name]);
      }
    },
  };
}

function dateTime64(precision: number, type: string): ColumnCodec {
  return scalar(type, (out, v) => {
    const [seconds, ticks] = timeParts(v, type, precision);
    writeTicks(out, seconds, ticks, precision);
  });
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** A Date (days since 1970-01-01, UInt16) from `YYYY-MM-DD` text. */
function dateDays(value: unknown): number {
  const parts = typeof value === "string" ? DATE_TEXT.exec(value) : null;
  if (!parts) throw refuse("CANNOT_PARSE_DATE", "Date", value);
  const [, y, m, d] = parts;
  const days = Date.UTC(Number(y), Number(m) - 1, Number(d)) / MS_PER_DAY;
  if (!(days >= 0 && days <= 0xffff))
    throw refuse("VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE", "Date", value);
  return days;
}

const SIMPLE: ReadonlyMap<string, ColumnCodec> = new Map([
  ["Date", scalar("Date", (out, v) => out.uint16(dateDays(v)))],
  ["String", scalar("String", (out, v) => out.string(stringOf(v)))],
  ["UInt8", uint("UInt8", 8)],
  ["UInt16", uint("UInt16", 16)],
  ["UInt32", uint("UInt32", 32)],
  ["UInt64", scalar("UInt64", writeUInt64)],
  ["Int32", scalar("Int32", (out, v) => out.int32(integer(v, "Int32", -(2 ** 31), 2 ** 31 - 1)))],
  ["Float64", scalar("Float64", (out, v) => out.float64(float(v)))],
  ["Bool", scalar("Bool", (out, v) => out.uint8(integer(v, "Bool", 0, 1)))],
]);

/** `Name(arguments)` split at its top-level commas. */
function parseType(type: string): { name: string; args: string[] } {
  const open = type.indexOf("(");
  if (open < 0 || !type.endsWith(")")) return { name: type.trim(), args: [] };
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = start; i < type.length - 1; i++) {
    const c = type[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      args.push(type.slice(start, i).trim());
      start = i + 1;
    }
  }
  args.push(type.slice(start, -1).trim());
  return { name: type.slice(0, open).trim(), args };
}

const UTC = /^'UTC'$/;

/** Type constructors by name; each builds a codec from its arguments or refuses them. */
const PARAMETRIC: ReadonlyMap<string, (args: string[]) => ColumnCodec | undefined> = new Map([
  // Sent as the plain type; the engine builds the dictionary while it inserts.
  ["LowCardinality", ([inner]) => (inner === undefined ? undefined : codecFor(inner))],
  [
    "Array",
    ([inner]) => {
      const element = inner === undefined ? undefined : codecFor(inner);
      return element && arrayCodec(element);
    },
  ],
  [
    "Map",
    ([k, v]) => {
      const key = k === undefined ? undefined : codecFor(k);
      const value = v === undefined ? undefined : codecFor(v);
      return key && value && mapCodec(key, value);
    },
  ],
  [
    "DateTime64",
    ([p, zone]) => {
      const precision = Number(p);
      if (!Number.isInteger(precision) || precision < 0 || precision > 9) return undefined;
      if (zone !== undefined && !UTC.test(zone)) return undefined;
      return dateTime64(precision, `DateTime64(${precision}, 'UTC')`);
    },
  ],
  [
    "DateTime",
    ([zone]) =>
      zone !== undefined && !UTC.test(zone)
        ? undefined
        : scalar("DateTime('UTC')", (out, v) => out.uint32(timeParts(v, "DateTime", 0)[0])),
  ],
]);

/** The codec for a column type, or undefined when the type is not one this encoder writes. */
export function codecFor(type: string): ColumnCodec | undefined {
  const simple = SIMPLE.get(type.trim());
  if (simple) return simple;
  const { name, args } = parseType(type);
  return PARAMETRIC.get(name)?.(args);
}
