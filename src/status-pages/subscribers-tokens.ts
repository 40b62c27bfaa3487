import { randomBytes } from "node:crypto";
import { sha256Hex } from "../lib/crypto.js";
import type { SecretBox } from "../lib/secret-box.js";

// Subscribers' link tokens: 32 random bytes, base64url. Only their sha256 is looked up; the
// unsubscribe token, which every email carries again, is also kept sealed with the server key.

/** A new token and its hash. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: sha256Hex(token) };
}

/** The hash a token is looked up by; a string that cannot be a token hashes to nothing stored. */
export const tokenHash = (token: string): string => sha256Hex(token);

/** A plausible token (43 base64url characters): anything else is refused before any lookup. */
export const isTokenShaped = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The unsubscribe token of a subscriber from its sealed form. */
export function openToken(box: SecretBox, sealed: string): string {
  const token = box.open(sealed);
  if (typeof token !== "string") throw new Error("the sealed value is not a token");
  return token;
}

/** The public links of a page's subscriptions, relative to the app's base. */
export const subscriptionPaths = {
  page: (slug: string) => `/status/${encodeURIComponent(slug)}`,
  subscribe: (slug: string) => `/status/${encodeURIComponent(slug)}/subscribe`,
  confirm: (slug: string, token: string) =>
    `/status/${encodeURIComponent(slug)}/subscribe/confirm/${token}`,
  unsubscribe: (slug: string, token: string) =>
    `/status/${encodeURIComponent(slug)}/unsubscribe/${token}`,
};
