import { UnavailableError } from "../../lib/domain-errors.js";

/** Seconds a caller should wait before retrying against a server that did not answer. */
const RETRY_AFTER_SECONDS = 5;

/**
 * An error the ClickHouse server reported, worded as chDB words it
 * (`Code: 62. DB::Exception: <message>. (SYNTAX_ERROR)`), so the TQL error mapping and the
 * ingest data-error check read it the same way whichever engine runs.
 */
export class ClickHouseServerError extends Error {
  constructor(
    message: string,
    /** The ClickHouse error number, e.g. 62. */
    readonly errorCode: number,
  ) {
    super(message);
    this.name = "ClickHouseServerError";
  }
}

/** ` (version 25.3.2.39 (official build))` at the end of a server message; chDB has none. */
const VERSION_SUFFIX = /\s*\(version [^()]*(?:\([^()]*\)[^()]*)*\)\s*$/;
const CODE = /Code:\s*(\d+)\./;

/**
 * Server errors that say the server cannot serve now (credentials, overload, a shard or Keeper
 * away), not that the statement is wrong: they become UnavailableError, like a refused
 * connection, so callers answer 503 and retry instead of blaming the query or the data.
 */
const UNAVAILABLE: Readonly<Record<number, string>> = {
  192: "it does not know the user",
  193: "it refused the password",
  194: "it requires a password",
  516: "it refused the credentials",
  202: "it runs too many queries at once",
  209: "a socket timed out inside the cluster",
  210: "a network error happened inside the cluster",
  225: "it has no Keeper (ZooKeeper) connection",
  242: "a replica is read-only (Keeper unavailable)",
  279: "it could not reach a shard",
  999: "its Keeper (ZooKeeper) failed",
};

/** The URL as it may be shown: scheme, host and port, never credentials or a query. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return "the configured URL";
  }
}

/** The error for a failed HTTP response: the body holds ClickHouse's exception text. */
export function responseError(
  url: string,
  status: number | undefined,
  body: string,
  headerCode: string | undefined,
): Error {
  const text = body.trim().replace(VERSION_SUFFIX, "");
  const number = Number(CODE.exec(text)?.[1] ?? headerCode ?? Number.NaN);
  if (!Number.isInteger(number))
    return new UnavailableError(
      `The telemetry store at ${url} answered HTTP ${status ?? "?"} without a ClickHouse error; retry later`,
      RETRY_AFTER_SECONDS,
    );
  const reason = UNAVAILABLE[number];
  if (reason !== undefined)
    return withCause(
      new UnavailableError(
        `The telemetry store at ${url} cannot serve this now: ${reason} (code ${number}); retry later`,
        RETRY_AFTER_SECONDS,
      ),
      new ClickHouseServerError(text, number),
    );
  return new ClickHouseServerError(text, number);
}

/** The error for a request that got no HTTP answer: refused, reset, timed out, TLS. */
export function transportError(url: string, error: unknown): UnavailableError {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // The client's own wording for its request timeout is "Timeout error.".
  const reason =
    typeof code === "string"
      ? code
      : /^Timeout error/.test(message)
        ? "no answer in time"
        : message.replace(/\.$/, "") || "no answer";
  return withCause(
    new UnavailableError(
      `The telemetry store at ${url} could not be reached (${reason}); retry later`,
      RETRY_AFTER_SECONDS,
    ),
    error,
  );
}

function withCause<T extends Error>(error: T, cause: unknown): T {
  Object.defineProperty(error, "cause", { value: cause, enumerable: false, configurable: true });
  return error;
}
