import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox, SecretBoxError } from "./secret-box.js";

describe("createSecretBox", () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);

  it("round-trips JSON values in the versioned format, with a fresh IV each time", () => {
    const value = { webhookUrl: "https://hooks.slack.com/services/T/B/secret", n: 1, ok: true };
    const sealed = box.seal(value);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain("hooks.slack.com");
    expect(box.open(sealed)).toEqual(value);
    expect(box.seal(value)).not.toBe(sealed);
    expect(box.open(box.seal("text"))).toBe("text");
    expect(box.open(box.seal(null))).toBeNull();
  });

  it("refuses altered text, a wrong key and malformed input", () => {
    const sealed = box.seal({ secret: "s3cret" });
    const [version, iv, tag, text] = sealed.split(".") as [string, string, string, string];
    const flipped = Buffer.from(text, "base64url");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => box.open([version, iv, tag, flipped.toString("base64url")].join("."))).toThrow(
      SecretBoxError,
    );
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow(/another secret key/);
    expect(() => box.open(`v2.${iv}.${tag}.${text}`)).toThrow(/version 'v2'/);
    for (const bad of ["", "v1", "v1.a.b", `v1.${iv}.${tag}.${text}.x`, `v1.${iv}.!!.${text}`]) {
      expect(() => box.open(bad)).toThrow(SecretBoxError);
    }
  });

  it("needs a 32-byte key and keeps its own copy", () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
    const mutable = Buffer.from(key);
    const own = createSecretBox(mutable);
    const sealed = own.seal("x");
    mutable.fill(0);
    expect(own.open(sealed)).toBe("x");
  });
});
