import { randomFillSync } from "node:crypto";

/** Prefixes of every id Vigil issues (docs/design.md §3). */
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
  | "sqr"
  | "dsh"
  | "pnl"
  | "row"
  | "svw"
  | "inv"
  | "sub"
  | "spn"
  | "esc";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/** Generates ids: a prefix, then 10 chars of millisecond time and 16 of randomness (ULID layout), so ids sort by creation time. */
export type IdGenerator = (prefix: IdPrefix) => string;

const TIME_DIGITS = 10;
const RANDOM_DIGITS = 16;

/** The 10 base-32 digits of a millisecond timestamp (50 bits: plain numbers suffice). */
function timeDigits(ms: number): string {
  let out = "";
  let rest = ms;
  for (let i = 0; i < TIME_DIGITS; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** Random bytes drawn a pool at a time: one system call per 512 ids rather than one each. */
const POOL = Buffer.alloc(RANDOM_DIGITS * 512);
let pooled = POOL.length;

/** 16 random base-32 digits (80 bits), as digit values 0–31. */
function freshRandom(into: Uint8Array): void {
  if (pooled + RANDOM_DIGITS > POOL.length) {
    randomFillSync(POOL);
    pooled = 0;
  }
  for (let i = 0; i < RANDOM_DIGITS; i++) into[i] = (POOL[pooled + i] as number) & 31;
  pooled += RANDOM_DIGITS;
}

/** Adds one to the digits; false when they were all 31 (the 80-bit space of this millisecond ran out). */
function increment(digits: Uint8Array): boolean {
  for (let i = RANDOM_DIGITS - 1; i >= 0; i--) {
    if ((digits[i] as number) < 31) {
      digits[i] = (digits[i] as number) + 1;
      return true;
    }
    digits[i] = 0;
  }
  return false;
}

/**
 * Monotonic like ULID's monotonic mode: within one millisecond (or if the clock steps back)
 * the random part is the previous one plus one, so ids made one after another sort in that
 * order (an incident's timeline entries of the same instant keep their order).
 */
export function createIdGenerator(now: () => number = Date.now): IdGenerator {
  let lastMs = -1;
  let time = "";
  const random = new Uint8Array(RANDOM_DIGITS);
  return (prefix) => {
    const ms = now();
    if (ms > lastMs || !increment(random)) {
      lastMs = Math.max(ms, lastMs);
      time = timeDigits(lastMs);
      freshRandom(random);
    }
    let out = `${prefix}_${time}`;
    for (let i = 0; i < RANDOM_DIGITS; i++) out += CROCKFORD[random[i] as number];
    return out;
  };
}

export const newId: IdGenerator = createIdGenerator();
