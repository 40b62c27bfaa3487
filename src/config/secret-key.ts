import { MalformedKeyFileError, parseSecretKey, readOrCreateKeyFile } from "../lib/secret-box.js";
import { ConfigError } from "./config-error.js";

/**
 * The server's secret key: `secretKey` from the config when set (a malformed one is a
 * ConfigError), otherwise `<dataDir>/secret.key`, created once with 32 random bytes (mode 0600)
 * and reused on every later start. Losing that file makes stored channel secrets unreadable.
 */
export function loadSecretKey(
  config: { secretKey?: string | undefined; dataDir: string },
  metaEngine: "sqlite" | "postgres" = "sqlite",
): Buffer {
  if (config.secretKey === undefined && metaEngine === "postgres")
    // Several nodes share one PostgreSQL: a key generated per node could not open the others' secrets.
    throw new ConfigError([
      "VIGIL_SECRET_KEY (secretKey): required with a PostgreSQL metadata store, the same on every node " +
        "(create one with `openssl rand -base64 32`)",
    ]);
  if (config.secretKey !== undefined) {
    const key = parseSecretKey(config.secretKey);
    // The message never repeats the value: it is a secret even when malformed.
    if (!key)
      throw new ConfigError([
        "VIGIL_SECRET_KEY (secretKey): must be 32 bytes written as base64 or as 64 hex characters " +
          "(e.g. the output of `openssl rand -base64 32`)",
      ]);
    return key;
  }
  try {
    return readOrCreateKeyFile(config.dataDir);
  } catch (error) {
    if (!(error instanceof MalformedKeyFileError)) throw error;
    throw new ConfigError([
      `${error.path}: must hold a 32-byte key as base64 or 64 hex characters; restore it from a backup ` +
        "(a new key cannot read the secrets already stored)",
    ]);
  }
}
