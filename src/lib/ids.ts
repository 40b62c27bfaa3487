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
  | "ine";

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

export function createIdGenerator(now: () => number = Date.now): IdGenerator {
  return (prefix) => {
    const time = encodeBase32(BigInt(now()), 10);
    const random = encodeBase32(BigInt(`0x${randomBytes(10).toString("hex")}`), 16);
    return `${prefix}_${time}${random}`;
  };
}

export const newId: IdGenerator = createIdGenerator();
