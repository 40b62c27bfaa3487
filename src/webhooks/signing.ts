import { createHmac, randomBytes } from "node:crypto";
import type { SecretBox } from "../lib/secret-box.js";

/** Every secret starts so (Standard Webhooks); the rest is base64 of 32 random bytes. */
export const SECRET_PREFIX = "whsec_";

/**
 * The body of one attempt (the envelope, docs/design.md §4): what is signed, sent and shown in the log.
 * `payload` is the event's data as stored JSON text (`JSON.stringify(data)`), spliced in as it
 * is, so the body is the same bytes as `JSON.stringify({ event, data, attempt })` without
 * parsing and serializing the data again for every attempt.
 */
export const deliveryBody = (event: string, payload: string, attempt: number): string =>
  `{"event":${JSON.stringify(event)},"data":${payload},"attempt":${attempt}}`;

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/** The HMAC key of a secret: the bytes its base64 part encodes. */
export function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, "base64");
}

/**
 * The Standard Webhooks headers of one request: `webhook-id` (the message, the same on every
 * attempt), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature`
 * (`v1,` + base64 HMAC-SHA256 of "id.timestamp.body" under the secret's key).
 */
export function signatureHeaders(
  key: Buffer,
  messageId: string,
  at: Date,
  body: string,
): { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string } {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac("sha256", key)
    .update(`${messageId}.${timestamp}.${body}`)
    .digest("base64");
  return {
    "webhook-id": messageId,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${signature}`,
  };
}

/** An endpoint's secret from its sealed form; throws when it was sealed under another key. */
export function openSecret(box: SecretBox, sealed: string): string {
  const secret = box.open(sealed);
  if (typeof secret !== "string") throw new Error("the sealed value is not a signing secret");
  return secret;
}
