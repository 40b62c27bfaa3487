import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSecretBox, parseSecretKey, SECRET_KEY_FILE } from "../lib/secret-box.js";
import { ConfigError } from "./config-error.js";
import { loadSecretKey } from "./secret-key.js";

describe("loadSecretKey", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "vigil-secret-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("requires a configured key with a PostgreSQL metadata store (nodes must share it)", () => {
    const dataDir = tempDir();
    expect(() => loadSecretKey({ dataDir }, "postgres")).toThrow(/required with a PostgreSQL/);
    const key = randomBytes(32);
    expect(
      loadSecretKey({ secretKey: key.toString("base64"), dataDir }, "postgres").equals(key),
    ).toBe(true);
  });

  it("reads the configured key as base64 (standard or url-safe) or 64 hex characters", () => {
    const key = randomBytes(32);
    const dataDir = tempDir();
    for (const text of [
      key.toString("base64"),
      key.toString("base64url"),
      key.toString("hex"),
      key.toString("hex").toUpperCase(),
    ]) {
      expect(loadSecretKey({ secretKey: text, dataDir }).equals(key)).toBe(true);
    }
    // A configured key never writes a file.
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("rejects any other configured key with a ConfigError that does not repeat it", () => {
    const dataDir = tempDir();
    for (const bad of [
      randomBytes(16).toString("base64"),
      randomBytes(48).toString("base64"),
      "z".repeat(64),
      "correct horse battery staple, thirty-two chars",
    ]) {
      let error: unknown;
      try {
        loadSecretKey({ secretKey: bad, dataDir });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain("VIGIL_SECRET_KEY");
      expect((error as Error).message).not.toContain(bad);
    }
    expect(parseSecretKey("")).toBeUndefined();
  });

  it("creates <dataDir>/secret.key once (mode 0600) and reuses it on every later start", () => {
    const dataDir = join(tempDir(), "nested", "data");
    const first = loadSecretKey({ dataDir });
    expect(first).toHaveLength(32);
    const path = join(dataDir, SECRET_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadSecretKey({ dataDir }).equals(first)).toBe(true);
    expect(loadSecretKey({ secretKey: undefined, dataDir }).equals(first)).toBe(true);
    // No temporary files are left behind.
    expect(readdirSync(dataDir)).toEqual([SECRET_KEY_FILE]);
    // What was sealed before a restart opens after it.
    const sealed = createSecretBox(first).seal({ a: 1 });
    expect(createSecretBox(loadSecretKey({ dataDir })).open(sealed)).toEqual({ a: 1 });
    expect(parseSecretKey(readFileSync(path, "utf8"))?.equals(first)).toBe(true);
  });

  it("refuses a damaged key file instead of replacing it", () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, SECRET_KEY_FILE), "not a key\n");
    expect(() => loadSecretKey({ dataDir })).toThrow(ConfigError);
    expect(readFileSync(join(dataDir, SECRET_KEY_FILE), "utf8")).toBe("not a key\n");
  });
});
