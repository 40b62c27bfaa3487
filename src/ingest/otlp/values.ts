import type { AnyValue, IdBytes, Int64, KeyValue } from "./types.js";

/** Bounds applied to every attribute map while mapping. */
export interface AttributeLimits {
  /** Longer values are cut to this many characters. */
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
  let hex: string;
  if (typeof value === "string") {
    hex = value.toLowerCase();
    if (!HEX.test(hex)) return undefined;
  } else if (value instanceof Uint8Array) {
    hex = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex");
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

function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** Plain JSON for structured values (arrays, maps), the way OTLP/JSON would spell them. */
function toPlain(value: AnyValue | null | undefined): unknown {
  if (value == null) return null;
  if (has(value, "stringValue")) return value.stringValue;
  if (has(value, "boolValue")) return value.boolValue;
  if (has(value, "intValue")) {
    const big = toBigInt(value.intValue);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(big)
      : big.toString();
  }
  if (has(value, "doubleValue")) return toDouble(value.doubleValue);
  if (has(value, "arrayValue")) return (value.arrayValue?.values ?? []).map(toPlain);
  if (has(value, "kvlistValue")) {
    const out: Record<string, unknown> = {};
    for (const kv of value.kvlistValue?.values ?? []) if (kv.key) out[kv.key] = toPlain(kv.value);
    return out;
  }
  if (has(value, "bytesValue")) return bytesText(value.bytesValue);
  return null;
}

function bytesText(value: Uint8Array | string | null | undefined): string {
  if (value == null) return "";
  // OTLP/JSON already carries bytes as base64.
  return typeof value === "string" ? value : Buffer.from(value).toString("base64");
}

/** An attribute value as text: strings as they are, numbers and booleans printed, the rest as JSON. */
export function anyValueText(value: AnyValue | null | undefined, maxLength: number): string {
  if (value == null) return "";
  if (has(value, "stringValue")) return truncate(value.stringValue ?? "", maxLength);
  if (has(value, "boolValue")) return value.boolValue ? "true" : "false";
  if (has(value, "intValue")) return toBigInt(value.intValue).toString();
  if (has(value, "doubleValue")) return String(toDouble(value.doubleValue));
  if (has(value, "bytesValue")) return truncate(bytesText(value.bytesValue), maxLength);
  const plain = toPlain(value);
  return plain == null ? "" : truncate(JSON.stringify(plain), maxLength);
}

/** Attributes as a text map for a Map(String, String) column; first occurrence of a key wins. */
export function attributeMap(
  attributes: readonly KeyValue[] | null | undefined,
  limits: AttributeLimits,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!attributes) return out;
  let count = 0;
  for (const kv of attributes) {
    const key = kv.key;
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
