import { lookup as dnsLookup } from "node:dns";
import type { Socket } from "node:net";
import { isIP } from "node:net";
import type { ResultOperator } from "../../contracts/monitor-catalog.js";
import type { TlsDetailsView } from "../../contracts/monitors.js";
import { BlockedAddressError, isPublicAddress } from "../../lib/http/address-policy.js";
import type { ResolveAll } from "../../lib/http/outbound-agent.js";
import type { TransportError } from "../../lib/http/transport-error.js";
import { pooledRandomBytes } from "../../lib/random-pool.js";
import type { AssertionResult, CheckResult } from "../check-result.js";
import type { CheckRunDeps } from "./check-run-deps.js";

// What the kinds that are one exchange (tcp, dns, tls) share: their one-step result, the
// resolution of a host through the SSRF policy, and a time limit.

/** One thing a non-HTTP check verified, as an assertion result. */
export function checked(
  type: AssertionResult["type"],
  operator: ResultOperator,
  expected: string,
  actual: string | null,
  passed: boolean,
  message: string,
): AssertionResult {
  return { type, operator, expected, actual, passed, message };
}

export interface OneStep {
  name: string;
  method: "TCP" | "DNS" | "TLS" | "PING";
  /** The target line. */
  url: string;
  startedAt: string;
  durationMs: number;
  transportError: TransportError | null;
  assertions: AssertionResult[];
  responseBody: string | null;
  responseBodyTruncated?: boolean;
  tls?: TlsDetailsView | null;
}

/** A check of one step: it passed when nothing failed on the way and every assertion held. */
export function oneStepResult(step: OneStep, deps: Pick<CheckRunDeps, "randomBytes">): CheckResult {
  const passed = step.transportError === null && step.assertions.every((a) => a.passed);
  const random = deps.randomBytes ?? pooledRandomBytes;
  return {
    passed,
    startedAt: step.startedAt,
    durationMs: step.durationMs,
    traceId: random(16).toString("hex"),
    steps: [
      {
        name: step.name,
        status: passed ? "passed" : "failed",
        method: step.method,
        url: step.url,
        statusCode: null,
        durationMs: step.durationMs,
        transportError: step.transportError,
        assertions: step.assertions,
        extracted: {},
        responseBody: step.responseBody,
        responseBodyTruncated: step.responseBodyTruncated ?? false,
        ...(step.tls === undefined ? {} : { tls: step.tls }),
      },
    ],
  };
}

/** A failure this module detects itself, carrying its stable code. */
export class CheckFailure extends Error {
  constructor(
    readonly code: TransportError["code"],
    message: string,
  ) {
    super(message);
  }
}

/**
 * The address to connect to for a host: an IP literal as it is, a name resolved once. With the
 * SSRF guard on, any address that is not public refuses the host (as the outbound agent does),
 * and the socket then connects to the address that was checked (no DNS rebinding gap).
 */
export function resolveGuarded(
  host: string,
  deps: Pick<CheckRunDeps, "allowPrivateTargets" | "resolve">,
): Promise<{ address: string; family: 4 | 6 }> {
  const guard = (addresses: string[]) => {
    const blocked = deps.allowPrivateTargets
      ? undefined
      : addresses.find((address) => !isPublicAddress(address));
    if (blocked !== undefined) throw new BlockedAddressError(host, blocked);
  };
  const literal = isIP(host);
  if (literal) {
    guard([host]);
    return Promise.resolve({ address: host, family: literal as 4 | 6 });
  }
  const resolve: ResolveAll = deps.resolve ?? (dnsLookup as ResolveAll);
  return new Promise((done, fail) => {
    resolve(host, { all: true }, (error, addresses) => {
      if (error) return fail(error);
      const first = addresses[0];
      if (!first)
        return fail(Object.assign(new Error(`${host} has no addresses`), { code: "ENOTFOUND" }));
      try {
        guard(addresses.map((a) => a.address));
      } catch (blocked) {
        return fail(blocked);
      }
      done({ address: first.address, family: first.family === 6 ? 6 : 4 });
    });
  });
}

/** "timed out after 10 s" */
export const timeoutMessage = (ms: number): string =>
  ms >= 1000 ? `timed out after ${ms / 1000} s` : `timed out after ${ms} ms`;

/** Whole milliseconds since `started` (performance.now()). */
export const since = (started: number): number => Math.round(performance.now() - started);

/** Text kept in a result: at most `maxBytes` of UTF-8, with whether it was cut. */
export function keptText(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { text, truncated: false };
  return {
    text: new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, ""),
    truncated: true,
  };
}

/**
 * A socket once it is ready (`connect`, or `secureConnect` after a TLS handshake), or the first
 * error, or the signal's abort (the check's deadline); on failure the socket is destroyed. A
 * later error is swallowed: whatever goes wrong afterwards ends the read that follows, and must
 * never go unhandled.
 */
export function whenReady<S extends Socket>(
  socket: S,
  ready: "connect" | "secureConnect",
  signal: AbortSignal,
): Promise<S> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      socket.destroy();
      reject(signal.reason);
    };
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    socket.once(ready, () => {
      signal.removeEventListener("abort", abort);
      socket.on("error", () => {});
      resolve(socket);
    });
    socket.once("error", (error) => {
      signal.removeEventListener("abort", abort);
      socket.destroy();
      reject(error);
    });
  });
}
