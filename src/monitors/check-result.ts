import type {
  ResultAssertionType,
  ResultOperator,
  StepStatus,
} from "../contracts/monitor-catalog.js";
import type { TlsDetailsView } from "../contracts/monitors.js";

/** What the runner read from one HTTP response; assertions read only this. */
export interface ResponseSnapshot {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (set-cookie with "\n"). */
  headers: Readonly<Record<string, string>>;
  /** The body as text, cut at the configured byte limit. */
  body: string;
  bodyTruncated: boolean;
  /** Time from sending the request until the body was read, in whole milliseconds. */
  durationMs: number;
}

/** The outcome of one assertion: what was expected, what was read, and why it passed or failed. */
export interface AssertionResult {
  /** An HTTP assertion's type, or what a tcp/dns/tls/heartbeat check verified. */
  type: ResultAssertionType;
  operator: ResultOperator;
  /** The JSON path or header name for json_path and header assertions. */
  target?: string;
  expected: string;
  /** The value read from the response; null when the path did not resolve or the header is absent. */
  actual: string | null;
  passed: boolean;
  message: string;
}

/** One step of a check: its request as sent (after {{name}} substitution) and its outcome. */
export interface StepResult {
  name: string;
  status: StepStatus;
  method: string;
  url: string;
  statusCode: number | null;
  durationMs: number | null;
  /** Set when the request itself failed (DNS, refused, reset, TLS, timeout): no assertions ran. */
  transportError: { code: string; message: string } | null;
  assertions: AssertionResult[];
  /** Variables this step extracted (names only resolve on a passed step). */
  extracted: Record<string, string>;
  /** Stored only for a failed step, cut to the stored-body limit. */
  responseBody: string | null;
  responseBodyTruncated: boolean;
  /** The certificate of an https step or a tls check; null when the connection had no TLS. */
  tls?: TlsDetailsView | null;
}

/** One execution of a monitor: every step, the overall verdict and the total time. */
export interface CheckResult {
  passed: boolean;
  startedAt: string;
  /** The sum of every executed step's request time (the timeline row's figure). */
  durationMs: number;
  steps: StepResult[];
  /** The W3C trace id sent in every request's traceparent header. */
  traceId: string;
}
