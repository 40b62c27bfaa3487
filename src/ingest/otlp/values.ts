import type { AnyValue, IdBytes, Int64, KeyValue } from "./types.js";

/** Bounds applied to every attribute map while mapping. */
export interface AttributeLimits {
  /** Longer strings (attribute keys and values, names, bodies) are cut to this many characters. */
  maxValueLength: number;
  /** Attributes beyond this many per item are dropped. */
  maxAttributes: number;
}

const has = (value: object, key: string): boolean =>
  Object.hasOwn(value, key) && (value as Record<string, unknown>)[key] != null;

const HEX = /^[0-9a-f]*$/;

/**
 * A trace or span id as lowercase hex; '' when absent or all zero. Returns undefined when the id
 * is malformed (wrong length, not hex), which rejects the item carrying it.
 */
export function idHex(value: IdBytes | null | undefined, bytes: 8 | 16): string | undefined {
  if (value == null) return "";
  if (value instanceof Uint8Array) {
    if (value.length === 0) return "";
    if (value.length !== bytes) return undefined;
    if (allZero(value)) return "";
    return Buffer.isBuffer(value)
      ? value.toString("hex")
      : Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex");
  }
  let hex: string;
  if (typeof value === "string") {
    hex = value.toLowerCase();
    if (!HEX.test(hex)) return undefined;
  } else if (Array.isArray(value)) {
    // protobufjs leaves an unset bytes field as its default, an empty array.
    hex = Buffer.from(value as number[]).toString("hex");
  } else {
    return undefined;
  }
  if (hex.length === 0) return "";
  if (hex.length !== bytes * 2) return undefined;
  return /^0+$/.test(hex) ? "" : hex;
}

function allZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/**
 * Text as the engine can store it: cut to `max` UTF-16 code units (never between the halves of a
 * pair), and lone surrogates (OTLP/JSON can escape them; protobuf bytes decode invalid UTF-8 to
 * U+FFFD already) replaced by U+FFFD, so both encodings store the same text.
 */
export function cleanText(value: unknown, max: number): string {
  if (typeof value !== "string") return "";
  let text = value;
  if (text.length > max) {
    const last = text.charCodeAt(max - 1);
    text = text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
  }
  return text.isWellFormed() ? text : text.toWellFormed();
}

/** How deeply AnyValue arrays and maps may nest (a scalar inside one map is depth 1). */
export const MAX_ANY_VALUE_DEPTH = 16;

/** Thrown while mapping an item that cannot be stored; the message is the rejection reason. */
export class ItemRejection extends Error {}

/**
 * End of accepted item times (ns). DateTime64(9) would take up to 2262-04-11, but the TTL's
 * `toDateTime(timestamp)` + up to 3650 days wraps after 2106-02-07 and the engine silently drops
 * such rows at insert (docs/ingestion.md, Validation).
 */
export const MAX_TIME_NANOS = BigInt(Date.UTC(2096, 0, 1)) * 1_000_000n;

/**
 * An item time in nanoseconds: 0n when absent (or zero), the value when within the accepted
 * range; anything else rejects the item carrying it.
 */
export function timeNanos(value: Int64 | null | undefined, field: string): bigint {
  const nanos = toBigInt(value);
  if (nanos === 0n) return 0n;
  if (nanos < 0n || nanos >= MAX_TIME_NANOS)
    throw new ItemRejection(`${field} is outside 1970-01-01 … 2095-12-31 UTC`);
  return nanos;
}

const UINT64_MAX = (1n << 64n) - 1n;

/**
 * A count for a UInt64 column: a number when exact, else decimal text (JSON numbers from 1e21
 * print with an exponent, which the engine refuses). Negative or wider than 64 bits rejects.
 */
export function uint64Column(value: Int64 | null | undefined, field: string): number | string {
  const big = toBigInt(value);
  if (big < 0n || big > UINT64_MAX)
    throw new ItemRejection(`${field} is not an unsigned 64-bit integer`);
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
}

/** An Int32 column (exponential histogram scale and offsets): an integer in range, else rejects. */
export function int32Column(value: unknown, field: string): number {
  if (value == null) return 0;
  if (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= -(2 ** 31) &&
    value < 2 ** 31
  )
    return value;
  throw new ItemRejection(`${field} is not a 32-bit integer`);
}

/** A 64-bit unsigned integer as a bigint (0n when absent or unreadable). */
export function toBigInt(value: Int64 | null | undefined): bigint {
  if (value == null) return 0n;
  if (typeof value === "number") return Number.isFinite(value) ? BigInt(Math.trunc(value)) : 0n;
  if (typeof value === "string") return /^-?\d+$/.test(value) ? BigInt(value) : 0n;
  const high = BigInt(value.high >>> 0) << 32n;
  const combined = high | BigInt(value.low >>> 0);
  return value.unsigned === false && value.high < 0 ? combined - (1n << 64n) : combined;
}

/** A 64-bit integer as a JavaScript number (exact below 2^53). */
export function toNumber(value: Int64 | null | undefined): number {
  if (value == null) return 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") return Number(value) || 0;
  return Number(toBigInt(value));
}

/** A double from protobuf (number) or OTLP/JSON (number, or "NaN"/"Infinity" strings). */
export function toDouble(value: number | string | null | undefined): number {
  if (value == null) return 0;
  return typeof value === "number" ? value : Number(value);
}

const NS_PER_SECOND = 1_000_000_000n;

/** Nanoseconds since the epoch as ClickHouse DateTime64(9) text: `seconds.nanoseconds`. */
export function nanosToDateTime(nanos: bigint): string {
  const seconds = nanos / NS_PER_SECOND;
  const fraction = (nanos % NS_PER_SECOND).toString().padStart(9, "0");
  // ClickHouse reads a number as a Unix time only from ten digits on; earlier times (an unset
  // start time is 0) go out as calendar text.
  if (seconds >= 1_000_000_000n) return `${seconds}.${fraction}`;
  const date = new Date(Number(seconds < 0n ? 0n : seconds) * 1000).toISOString();
  return `${date.slice(0, 10)} ${date.slice(11, 19)}.${fraction}`;
}

/** Milliseconds since the epoch as ClickHouse DateTime64(3) text, `YYYY-MM-DD hh:mm:ss.sss` UTC. */
export function millisToDateTime(ms: number): string {
  return new Date(Math.floor(ms)).toISOString().slice(0, 23).replace("T", " ");
}

/**
 * Plain JSON for structured values (arrays, maps), the way OTLP/JSON would spell them, strings
 * made well-formed; nesting deeper than MAX_ANY_VALUE_DEPTH rejects the item.
 */
function toPlain(value: AnyValue | null | undefined, depth: number): unknown {
  if (value == null) return null;
  if (typeof value !== "object") throw new ItemRejection("an attribute value is not an AnyValue");
  if (has(value, "stringValue")) return cleanText(value.stringValue, Number.POSITIVE_INFINITY);
  if (has(value, "boolValue")) return value.boolValue;
  if (has(value, "intValue")) {
    const big = toBigInt(value.intValue);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(big)
      : big.toString();
  }
  if (has(value, "doubleValue")) return toDouble(value.doubleValue);
  const nested = has(value, "arrayValue") || has(value, "kvlistValue");
  if (nested && depth >= MAX_ANY_VALUE_DEPTH)
    throw new ItemRejection(`an attribute value nests deeper than ${MAX_ANY_VALUE_DEPTH} levels`);
  if (has(value, "arrayValue"))
    return shaped(value.arrayValue?.values, "arrayValue.values").map((v) => toPlain(v, depth + 1));
  if (has(value, "kvlistValue")) {
    const out: Record<string, unknown> = {};
    for (const kv of shaped(value.kvlistValue?.values, "kvlistValue.values")) {
      const key = cleanText(kv?.key, Number.POSITIVE_INFINITY);
      if (key) out[key] = toPlain(kv.value, depth + 1);
    }
    return out;
  }
  if (has(value, "bytesValue")) return bytesText(value.bytesValue);
  return null;
}

/** An array field of an item: absent is empty, anything but an array rejects the item. */
export function shaped<T>(value: readonly T[] | null | undefined, field: string): readonly T[] {
  if (value == null) return [];
  if (!Array.isArray(value)) throw new ItemRejection(`${field} must be an array`);
  return value;
}

function bytesText(value: Uint8Array | string | null | undefined): string {
  if (value == null) return "";
  // OTLP/JSON already carries bytes as base64.
  return typeof value === "string" ? value : Buffer.from(value).toString("base64");
}

/** An attribute value as text: strings as they are, numbers and booleans printed, the rest as JSON. */
export function anyValueText(value: AnyValue | null | undefined, maxLength: number): string {
  if (value == null) return "";
  if (typeof value !== "object") throw new ItemRejection("an attribute value is not an AnyValue");
  if (has(value, "stringValue")) return cleanText(value.stringValue, maxLength);
  if (has(value, "boolValue")) return value.boolValue ? "true" : "false";
  if (has(value, "intValue")) return toBigInt(value.intValue).toString();
  if (has(value, "doubleValue")) return String(toDouble(value.doubleValue));
  if (has(value, "bytesValue")) return cleanText(bytesText(value.bytesValue), maxLength);
  const plain = toPlain(value, 0);
  return plain == null ? "" : cleanText(JSON.stringify(plain), maxLength);
}

/** Attributes as a text map for a Map(String, String) column; first occurrence of a key wins. */
export function attributeMap(
  attributes: readonly KeyValue[] | null | undefined,
  limits: AttributeLimits,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!attributes) return out;
  let count = 0;
  for (const kv of shaped(attributes, "attributes")) {
    const key = cleanText(kv?.key, limits.maxValueLength);
    if (!key || Object.hasOwn(out, key)) continue;
    if (count >= limits.maxAttributes) break;
    out[key] = anyValueText(kv.value, limits.maxValueLength);
    count++;
  }
  return out;
}

/** Enum values arrive as integers (protobuf, OTLP/JSON) or, from lenient senders, as names. */
export function enumNumber(
  value: number | string | null | undefined,
  names: readonly string[],
): number {
  if (value == null) return 0;
  if (typeof value === "number") return value;
  const index = names.indexOf(value);
  return index >= 0 ? index : Number(value) || 0;
}
