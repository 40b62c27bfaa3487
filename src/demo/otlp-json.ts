// The OTLP/JSON building blocks of the demo dataset (see generator.ts): a seeded random source,
// attributes, resources, nanosecond times and spans.

export type Attr = { key: string; value: Record<string, unknown> };
export type Obj = Record<string, unknown>;

/** A small seeded PRNG (mulberry32): the same seed gives the same dataset. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
    bytes: (n: number) => {
      const out = Buffer.alloc(n);
      for (let i = 0; i < n; i += 4) out.writeUInt32BE((next() * 2 ** 32) >>> 0, i);
      return out;
    },
  };
}
export type Random = ReturnType<typeof createRandom>;

/** OTLP JSON attributes of plain values. */
export const attrs = (values: Obj): Attr[] =>
  Object.entries(values).map(([key, v]) => ({
    key,
    value:
      typeof v === "number"
        ? Number.isInteger(v)
          ? { intValue: v }
          : { doubleValue: v }
        : typeof v === "boolean"
          ? { boolValue: v }
          : Array.isArray(v)
            ? { arrayValue: { values: v.map((s) => ({ stringValue: String(s) })) } }
            : { stringValue: String(v) },
  }));

export const resource = (service: string, extra: Obj = {}) => ({
  attributes: attrs({
    "service.name": service,
    "service.version": "2.4.1",
    "deployment.environment.name": "production",
    ...extra,
  }),
});

export const ns = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

/** One span to send, in milliseconds and plain attributes. */
export interface SpanSpec {
  traceId: Buffer;
  spanId: Buffer;
  parentSpanId?: Buffer;
  name: string;
  kind: number;
  startMs: number;
  durationMs: number;
  attributes: Obj;
  error?: { type: string; message: string; stack: string };
}

/** A span as OTLP JSON; an error becomes its status and an exception event. */
export const toSpan = (s: SpanSpec) => ({
  traceId: s.traceId,
  spanId: s.spanId,
  ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
  name: s.name,
  kind: s.kind,
  startTimeUnixNano: ns(s.startMs),
  endTimeUnixNano: ns(s.startMs + s.durationMs),
  attributes: attrs(s.attributes),
  status: s.error ? { code: 2, message: s.error.message } : { code: 0 },
  events: s.error
    ? [
        {
          name: "exception",
          timeUnixNano: ns(s.startMs + s.durationMs),
          attributes: attrs({
            "exception.type": s.error.type,
            "exception.message": s.error.message,
            "exception.stacktrace": s.error.stack,
          }),
        },
      ]
    : [],
});
