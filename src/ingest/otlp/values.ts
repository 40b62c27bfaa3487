import { UnixTime } from "../../telemetry/unix-time.js";
import type { AnyValue, IdBytes, Int64, KeyValue } from "./otlp-messages.js";

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
 * End of accepted item times. DateTime64(9) would take up to 2262-04-11, but the TTL's
 * `toDateTime(timestamp)` + up to 3650 days wraps after 2106-02-07 and the engine silently drops
 * such rows at insert (docs/ingestion.md, Validation).
 */
export const MAX_TIME_SECONDS = Date.UTC(2096, 0, 1) / 1000;

const TWO_21 = 2 ** 21;
const TWO_32 = 2 ** 32;
const TWO_64 = 2 ** 64;
/** Stands for every negative count: before the epoch, outside any accepted range. */
const BEFORE_EPOCH = new UnixTime(-1, 0);
const INTEGER_TEXT = /^-?\d+$/;

/**
 * A 64-bit nanosecond count as a time, without BigInt: undefined when absent, zero or unreadable
 * (not an integer). A negative count is a time before the epoch; a count past 64 bits, one past
 * every accepted time.
 */
export function unixTime(value: Int64 | null | undefined): UnixTime | undefined {
  if (value == null) return undefined;
  let time: UnixTime;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    const nanos = Math.trunc(value);
    if (nanos < 0) return BEFORE_EPOCH;
    time =
      nanos >= TWO_64 ? new UnixTime(Math.floor(nanos / 1e9), 0) : UnixTime.fromNanosNumber(nanos);
  } else if (typeof value === "string") {
    if (!INTEGER_TEXT.test(value)) return undefined;
    const digits = value.startsWith("-") ? value.slice(1) : value;
    time = new UnixTime(Number(digits.slice(0, -9) || 0), Number(digits.slice(-9)));
    if (digits !== value && (time.seconds > 0 || time.nanos > 0)) return BEFORE_EPOCH;
  } else {
    if (value.unsigned === false && value.high < 0) return BEFORE_EPOCH;
    time = UnixTime.fromWords(value.low, value.high);
  }
  return time.seconds === 0 && time.nanos === 0 ? undefined : time;
}

/** Whether a time is one an item may carry: from the epoch to MAX_TIME_SECONDS. */
export const acceptedTime = (time: UnixTime): boolean =>
  time.seconds >= 0 && time.seconds < MAX_TIME_SECONDS;

/**
 * An item time: undefined when absent (or zero), the time when within the accepted range;
 * anything else rejects the item carrying it.
 */
export function timeOf(value: Int64 | null | undefined, field: string): UnixTime | undefined {
  const time = unixTime(value);
  if (time && !acceptedTime(time))
    throw new ItemRejection(`${field} is outside 1970-01-01 … 2095-12-31 UTC`);
  return time;
}

const UINT64_MAX = (1n << 64n) - 1n;

/**
 * A count for a UInt64 column: a number when exact, else decimal text (JSON numbers from 1e21
 * print with an exponent, which the engine refuses). Negative or wider than 64 bits rejects.
 */
export function uint64Column(value: Int64 | null | undefined, field: string): number | string {
  const n = int64Value(value);
  if (typeof n === "number") {
    if (n < 0) throw new ItemRejection(`${field} is not an unsigned 64-bit integer`);
    return n;
  }
  if (n < 0n || n > UINT64_MAX)
    throw new ItemRejection(`${field} is not an unsigned 64-bit integer`);
  return n.toString();
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

/**
 * A 64-bit integer exactly: a number when it is a safe integer (almost always, and then without
 * BigInt), else a bigint. 0 when absent or unreadable.
 */
export function int64Value(value: Int64 | null | undefined): number | bigint {
  if (value == null) return 0;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return 0;
    const n = Math.trunc(value);
    return Number.isSafeInteger(n) ? n : BigInt(n);
  }
  if (typeof value === "string") {
    if (!INTEGER_TEXT.test(value)) return 0;
    if (value.length <= 15) return Number(value) || 0; // `|| 0` turns -0 into 0
    return safeOrBig(BigInt(value));
  }
  const signed = value.unsigned === false;
  const high = signed ? value.high | 0 : value.high >>> 0;
  // |high| < 2^21 keeps high * 2^32 + low below 2^53.
  if (high < TWO_21 && high >= -TWO_21) return high * TWO_32 + (value.low >>> 0);
  return BigInt(high) * BigInt(TWO_32) + BigInt(value.low >>> 0);
}

const safeOrBig = (n: bigint): number | bigint =>
  n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;

/** A 64-bit integer as a JavaScript number (exact below 2^53). */
export function toNumber(value: Int64 | null | undefined): number {
  if (value == null) return 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") return Number(value) || 0;
  return Number(int64Value(value));
}

/** A double from protobuf (number) or OTLP/JSON (number, or "NaN"/"Infinity" strings). */
export function toDouble(value: number | string | null | undefined): number {
  if (value == null) return 0;
  return typeof value === "number" ? value : Number(value);
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
    const n = int64Value(value.intValue);
    return typeof n === "number" ? n : n.toString();
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
  if (has(value, "intValue")) return String(int64Value(value.intValue));
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
