import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createSecretBox } from "../lib/secret-box.js";
import {
  deliveryBody,
  generateSecret,
  openSecret,
  SECRET_PREFIX,
  signatureHeaders,
  signingKey,
} from "./signing.js";

const SECRET_FORMAT = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe("generateSecret", () => {
  it("is whsec_ + base64 of 32 bytes", () => {
    const secret = generateSecret();
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(secret).toMatch(SECRET_FORMAT);
    const bytes = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
    expect(bytes).toHaveLength(32);
    // Canonical base64: encoding the bytes again gives the same text.
    expect(bytes.toString("base64")).toBe(secret.slice(SECRET_PREFIX.length));
    expect(signingKey(secret).equals(bytes)).toBe(true);
  });

  it("is different on every call", () => {
    const secrets = new Set(Array.from({ length: 100 }, () => generateSecret()));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) expect(secret).toMatch(SECRET_FORMAT);
  });

  it("takes the key from a secret with or without its prefix", () => {
    const secret = generateSecret();
    const bare = secret.slice(SECRET_PREFIX.length);
    expect(signingKey(bare).equals(signingKey(secret))).toBe(true);
  });
});

describe("deliveryBody", () => {
  it.each([
    ["monitor.down", { monitorId: "mon_1", nested: { n: 1, list: [1, "two", null] } }],
    ["error.created", { message: 'ünïcødé ✓ 日本語 😀 \u2028 "quoted" \\ </script>' }],
    ['odd"type\\', null],
    ["test.ping", {}],
  ])("splices the stored payload into the same bytes JSON.stringify makes: %s", (event, data) => {
    for (const attempt of [1, 2])
      expect(deliveryBody(event, JSON.stringify(data), attempt)).toBe(
        JSON.stringify({ event, data, attempt }),
      );
  });
});

describe("signatureHeaders", () => {
  const BODIES = [
    "{}",
    '{"event":"test.ping","data":{"type":"test.ping"},"attempt":1}',
    JSON.stringify({
      event: "error.created",
      data: { message: "ünïcødé ✓ 日本語 😀" },
      attempt: 2,
    }),
    "",
    `{"big":"${"x".repeat(100_000)}"}`,
    '{\r\n  "lineBreaks": "a\\nb",\r\n  "tab": "\\t"\r\n}',
  ];

  it.each(BODIES.map((body) => [body.slice(0, 40), body]))(
    "is accepted by the standardwebhooks verifier: %s",
    (_label, body) => {
      const secret = generateSecret();
      const headers = signatureHeaders(signingKey(secret), "msg_01kaexample", new Date(), body);
      expect(headers["webhook-id"]).toBe("msg_01kaexample");
      expect(headers["webhook-timestamp"]).toMatch(/^\d+$/);
      expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      const verifier = new Webhook(secret);
      // verify throws unless a signature matches; it returns the parsed JSON (undefined for "").
      expect(() => verifier.verify(body, headers, { jsonParse: false })).not.toThrow();
      expect(verifier.verify(body, headers)).toEqual(body === "" ? undefined : JSON.parse(body));
      expect(verifier.verify(Buffer.from(body, "utf8"), headers)).toEqual(
        body === "" ? undefined : JSON.parse(body),
      );
    },
  );

  it("signs exactly what the reference implementation signs", () => {
    const secret = generateSecret();
    const at = new Date("2026-11-21T09:30:00.789Z");
    const body = JSON.stringify({ text: "ünïcødé 😀" });
    const headers = signatureHeaders(signingKey(secret), "msg_fixed", at, body);
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers["webhook-signature"]).toBe(new Webhook(secret).sign("msg_fixed", at, body));
  });

  it("keeps the webhook-id across attempts while the timestamp changes the signature", () => {
    const secret = generateSecret();
    const key = signingKey(secret);
    const body = '{"event":"monitor.down","attempt":1}';
    const now = Date.now();
    const first = signatureHeaders(key, "msg_same", new Date(now - 60_000), body);
    const second = signatureHeaders(key, "msg_same", new Date(now), body);
    expect(second["webhook-id"]).toBe(first["webhook-id"]);
    expect(second["webhook-timestamp"]).not.toBe(first["webhook-timestamp"]);
    expect(second["webhook-signature"]).not.toBe(first["webhook-signature"]);
    const verifier = new Webhook(secret);
    expect(verifier.verify(body, first)).toEqual(JSON.parse(body));
    expect(verifier.verify(body, second)).toEqual(JSON.parse(body));
    // A signature does not carry over to another timestamp.
    expect(() =>
      verifier.verify(body, {
        ...second,
        "webhook-signature": first["webhook-signature"],
      }),
    ).toThrow();
  });

  it("fails verification for a tampered body, id, another secret or a stale timestamp", () => {
    const secret = generateSecret();
    const body = JSON.stringify({ event: "test.ping", amount: 10 });
    const headers = signatureHeaders(signingKey(secret), "msg_tamper", new Date(), body);
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(body, headers)).not.toThrow();
    expect(() => verifier.verify(body.replace("10", "11"), headers)).toThrow();
    expect(() => verifier.verify(`${body} `, headers)).toThrow();
    expect(() => verifier.verify(body, { ...headers, "webhook-id": "msg_other" })).toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    const stale = signatureHeaders(
      signingKey(secret),
      "msg_tamper",
      new Date(Date.now() - 60 * 60_000),
      body,
    );
    expect(() => verifier.verify(body, stale)).toThrow();
  });
});

describe("openSecret", () => {
  const box = createSecretBox(randomBytes(32));

  it("round-trips a secret sealed by the secret box", () => {
    const secret = generateSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(SECRET_PREFIX.length));
    expect(openSecret(box, sealed)).toBe(secret);
  });

  it.each([
    ["a number", 42],
    ["null", null],
    ["an object", { secret: "whsec_x" }],
    ["an array", ["whsec_x"]],
    ["a boolean", true],
  ])("throws when the sealed value is %s", (_label, value) => {
    expect(() => openSecret(box, box.seal(value))).toThrow(/not a signing secret/);
  });

  it("throws for a secret sealed under another key", () => {
    const other = createSecretBox(randomBytes(32));
    expect(() => openSecret(box, other.seal(generateSecret()))).toThrow();
  });
});
