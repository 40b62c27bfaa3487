import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { SecretBox } from "../lib/secret-box.js";

// A heartbeat's ping URL carries a secret token: 32 random bytes, base64url (43 characters).
// The store keeps its sha-256 to find the monitor by, and the token sealed with the server key
// so the monitor's pingUrl can be shown again; the token itself is never logged or stored plain.

const TOKEN_BYTES = 32;
/** What a token looks like; anything else is refused before any lookup. */
export const PING_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new token with what the store keeps of it. */
export interface MintedToken {
  token: string;
  tokenHash: string;
  tokenSealed: string;
}

export const hashPingToken = (token: string): string =>
  createHash("sha256").update(token, "utf8").digest("hex");

export function mintPingToken(box: SecretBox): MintedToken {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  return { token, tokenHash: hashPingToken(token), tokenSealed: box.seal({ token }) };
}

/** The token sealed in a record; undefined when it cannot be opened (another server key). */
export function openPingToken(box: SecretBox, sealed: string): string | undefined {
  try {
    const value = box.open(sealed);
    if (typeof value === "object" && value !== null && "token" in value) {
      const { token } = value;
      return typeof token === "string" && PING_TOKEN.test(token) ? token : undefined;
    }
  } catch {
    // A key change leaves the URL unknown; the monitor still works by its digest.
  }
  return undefined;
}

/**
 * Whether `token` is the one `tokenHash` was made from, compared in constant time (the lookup by
 * digest already matched; this keeps a lookup through a non-unique path from leaking timing).
 */
export function pingTokenMatches(token: string, tokenHash: string): boolean {
  const actual = Buffer.from(hashPingToken(token), "hex");
  const expected = Buffer.from(tokenHash, "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The path of a heartbeat's ping URL; the app's base is put in front of it by AppUrl. */
export const pingPath = (token: string): string => `/ping/${token}`;
