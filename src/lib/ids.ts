import { randomBytes } from "node:crypto";

/** Prefixes of every id Vigil issues (DESIGN §3). */
export type IdPrefix =
  | "org"
  | "prj"
  | "usr"
  | "key"
  | "ses"
  | "mon"
  | "run"
  | "inc"
  | "alr"
  | "ale"
  | "whe"
  | "msg"
  | "req"
  | "chn"
  | "ntf"
  | "dlv"
  | "att"
  | "ine"
  | "stp"
  | "spg"
  | "spc"
  | "mnt"
  | "sqr";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

function encodeBase32(value: bigint, length: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = (CROCKFORD[Number(rest & 31n)] ?? "0") + out;
    rest >>= 5n;
  }
  return out;
}

/** Generates ids: a prefix, then 10 chars of millisecond time and 16 of randomness (ULID layout), so ids sort by creation time. */
export type IdGenerator = (prefix: IdPrefix) => string;

const RANDOM_MAX = (1n << 80n) - 1n;

/**
 * Monotonic like ULID's monotonic mode: within one millisecond (or if the clock steps back)
 * the random part is the previous one plus one, so ids made one after another sort in that
 * order (an incident's timeline entries of the same instant keep their order).
 */
export function createIdGenerator(now: () => number = Date.now): IdGenerator {
  let lastMs = -1;
  let lastRandom = 0n;
  return (prefix) => {
    const ms = now();
    if (ms > lastMs || lastRandom >= RANDOM_MAX) {
      lastMs = Math.max(ms, lastMs);
      lastRandom = BigInt(`0x${randomBytes(10).toString("hex")}`);
    } else lastRandom += 1n;
    return `${prefix}_${encodeBase32(BigInt(lastMs), 10)}${encodeBase32(lastRandom, 16)}`;
  };
}

export const newId: IdGenerator = createIdGenerator();
