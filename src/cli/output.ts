import { ConfigError } from "../config/config-error.js";
import { DomainError } from "../lib/domain-errors.js";

/** Exit codes of every command (docs/design.md §4). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export interface Output {
  /** Prints the command's result: the object with --json, the human text otherwise. */
  result(value: object, human: string): void;
}

export function createOutput(
  json: boolean,
  write = (s: string) => process.stdout.write(s),
  writeErr = (s: string) => process.stderr.write(s),
): Output & { error(error: unknown): number; usage(message: string): number } {
  return {
    result(value, human) {
      write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
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
      // Bad arguments are usage errors whether commander or the domain's validation found them.
      return code === "invalid_input" ? EXIT.usage : EXIT.failure;
    },
    /** Reports a usage error commander already printed; with --json, also as one object. */
    usage(message) {
      if (json) write(`${JSON.stringify({ error: { code: "usage", message } })}\n`);
      return EXIT.usage;
    },
  };
}
