import { ConfigError } from "../config.js";
import { DomainError } from "../lib/errors.js";

/** Exit codes of every command (DESIGN §4). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export interface Output {
  json: boolean;
  /** Prints the command's result: the object with --json, the human text otherwise. */
  result(value: object, human: string): void;
  /** Progress and hints for people; silent with --json so stdout stays one object. */
  info(text: string): void;
}

export function createOutput(
  json: boolean,
  write = (s: string) => process.stdout.write(s),
  writeErr = (s: string) => process.stderr.write(s),
): Output & { error(error: unknown): number } {
  return {
    json,
    result(value, human) {
      write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
    },
    info(text) {
      if (!json) writeErr(`${text}\n`);
    },
    /** Reports a failure and returns the exit code for it. */
    error(error) {
      const code =
        error instanceof ConfigError
          ? "invalid_config"
          : error instanceof DomainError
            ? error.code
            : "failure";
      const message = error instanceof Error ? error.message : String(error);
      if (json) write(`${JSON.stringify({ error: { code, message } })}\n`);
      writeErr(`vigil: ${message}\n`);
      return EXIT.failure;
    },
  };
}
