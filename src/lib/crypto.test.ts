import { describe, expect, it } from "vitest";
import { hashPassword, randomBase62, sha256Hex, verifyPassword } from "./crypto.js";

describe("crypto helpers", () => {
  it("hashes passwords with scrypt and a fresh salt, and verifies them", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct hors", a)).toBe(false);
    expect(await verifyPassword("correct horse", "plain-text")).toBe(false);
  });

  it("draws base62 text of the asked length", () => {
    const text = randomBase62(500);
    expect(text).toMatch(/^[0-9A-Za-z]{500}$/);
    expect(new Set(text).size).toBeGreaterThan(50);
  });

  it("hashes with SHA-256", () => {
    expect(sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});
