import { type DestinationStream, type Logger, pino } from "pino";

/** Header and field paths that may carry secrets; pino replaces them before a line is written. */
export const REDACTED_PATHS = [
  "req.headers['x-api-key']",
  "req.headers.authorization",
  "req.headers.cookie",
  "res.headers['set-cookie']",
  "headers['x-api-key']",
  "headers.cookie",
  "password",
  "*.password",
  "apiKey",
  "*.apiKey",
  "key",
  "token",
  "secret",
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
  return destination ? pino(options, destination) : pino(options);
}
