import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Encrypts small JSON values (channel URLs, webhook secrets) for storage; `open` undoes `seal`. */
export interface SecretBox {
  /** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
  seal(value: unknown): string;
  /** The sealed value; throws SecretBoxError when it was altered or sealed with another key. */
  open(sealed: string): unknown;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** AES-256-GCM with a fresh random IV per value; the tag authenticates version, IV and text. */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new SecretBoxError(`the key must be ${KEY_BYTES} bytes`);
  // A private copy: the caller's buffer may be reused or zeroed later.
  const secretKey = Buffer.from(key);
  const aad = Buffer.from(VERSION);
  return {
    seal(value) {
      const plain = JSON.stringify(value);
      if (plain === undefined) throw new SecretBoxError("cannot seal undefined");
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, secretKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad);
      const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(sealed) {
      const parts = sealed.split(".");
      const [version, iv, tag, ciphertext] = parts;
      if (parts.length !== 4 || version === undefined || iv === undefined || tag === undefined)
        throw new SecretBoxError("not a sealed secret");
      if (version !== VERSION)
        throw new SecretBoxError(`unknown sealed secret version '${version}'`);
      if (![iv, tag, ciphertext].every((p) => p !== undefined && BASE64URL.test(p)))
        throw new SecretBoxError("not a sealed secret");
      const ivBytes = Buffer.from(iv, "base64url");
      const tagBytes = Buffer.from(tag, "base64url");
      if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES)
        throw new SecretBoxError("not a sealed secret");
      const decipher = createDecipheriv(ALGORITHM, secretKey, ivBytes, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(aad);
      decipher.setAuthTag(tagBytes);
      let plain: string;
      try {
        plain = Buffer.concat([
          decipher.update(Buffer.from(ciphertext ?? "", "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new SecretBoxError(
          "cannot decrypt a stored secret: it was altered or sealed with another secret key",
        );
      }
      return JSON.parse(plain) as unknown;
    },
  };
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}={0,1}$/;

/** Reads a 32-byte key written as 64 hex characters or as base64 (standard or url-safe); undefined otherwise. */
export function parseSecretKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (HEX_KEY.test(value)) return Buffer.from(value, "hex");
  if (!BASE64_KEY.test(value)) return undefined;
  const bytes = Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

export const SECRET_KEY_FILE = "secret.key";

/**
 * `<dataDir>/secret.key`, created once with 32 random bytes (mode 0600) and reused on every
 * later start. A file that does not hold a key throws MalformedKeyFileError: it is never replaced,
 * as a new key could not read the secrets already stored.
 */
export function readOrCreateKeyFile(dataDir: string): Buffer {
  const path = join(dataDir, SECRET_KEY_FILE);
  const existing = readKeyFile(path);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  // Written whole under a private name, then linked into place: link fails if another process
  // won the race, and nobody ever reads a half-written key.
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, `${randomBytes(KEY_BYTES).toString("base64")}\n`, {
    mode: 0o600,
    flag: "wx",
    flush: true,
  });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  const created = readKeyFile(path);
  if (!created) throw new Error(`${path} could not be created`);
  return created;
}

/** The key file exists but holds no 32-byte key. */
export class MalformedKeyFileError extends SecretBoxError {
  constructor(readonly path: string) {
    super(`${path} does not hold a 32-byte key`);
    this.name = "MalformedKeyFileError";
  }
}

function readKeyFile(path: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const key = parseSecretKey(text);
  if (!key) throw new MalformedKeyFileError(path);
  return key;
}
