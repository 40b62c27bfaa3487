import { z } from "zod";
import {
  CHECK_TRIGGERS,
  RESULT_ASSERTION_TYPES,
  RESULT_OPERATORS,
  STEP_STATUSES,
} from "./monitor-catalog.js";

// A monitor check's result as the API shows it (every kind): its steps, each with its
// assertions and, over TLS, the certificate. contracts/monitors.ts re-exports them.

/** One assertion of a check: what was expected, what was read, and whether it passed. */
export const AssertionResultView = z.object({
  type: z.enum(RESULT_ASSERTION_TYPES),
  operator: z.enum(RESULT_OPERATORS),
  target: z.string().optional().describe("The JSON path or header name"),
  expected: z.string(),
  actual: z
    .string()
    .nullable()
    .describe("null when the path did not resolve or the header is absent"),
  passed: z.boolean(),
  message: z.string(),
});
export type AssertionResultView = z.infer<typeof AssertionResultView>;

/** The certificate a TLS connection presented: tls checks, and every https step. */
export const TlsDetailsView = z
  .object({
    subject: z.string().describe("The certificate's subject common name (or its subject)"),
    issuer: z.string(),
    validFrom: z.string().describe("ISO 8601"),
    validTo: z.string().describe("ISO 8601"),
    daysLeft: z.number().int().describe("Whole days until validTo (negative: expired)"),
    authorized: z.boolean().describe("The chain is valid against the trusted CAs"),
    authorizationError: z.string().nullable(),
    hostnameMatches: z.boolean(),
  })
  .meta({ id: "TlsDetails" });
export type TlsDetailsView = z.infer<typeof TlsDetailsView>;

/**
 * One step of a check: its request as sent and its outcome. A tcp, dns, tls or heartbeat check
 * is one step (method TCP, DNS, TLS or PING; url its target; one assertion per thing checked).
 */
export const StepResultView = z.object({
  name: z.string(),
  status: z.enum(STEP_STATUSES),
  method: z.string(),
  url: z.string().describe("As sent, after {{name}} substitution"),
  statusCode: z.number().int().nullable(),
  durationMs: z
    .number()
    .nullable()
    .describe("This request's time; its response_time assertions see it"),
  transportError: z
    .object({ code: z.string(), message: z.string() })
    .nullable()
    .describe("Set when the request failed; then no assertion was evaluated"),
  assertions: z.array(AssertionResultView),
  extracted: z.record(z.string(), z.string()),
  responseBody: z
    .string()
    .nullable()
    .describe(
      "HTTP: only for a failed step, truncated; tcp: what was received; dns: the answers; tls: the certificate; heartbeat: the ping's body",
    ),
  responseBodyTruncated: z.boolean(),
  tls: TlsDetailsView.nullable()
    .optional()
    .describe("The certificate of an https step or a tls check (null: no TLS connection)"),
});
export type StepResultView = z.infer<typeof StepResultView>;

/** One check: every step with its assertions, the verdict, and the total time across steps. */
export const CheckResultView = z
  .object({
    id: z.string(),
    monitorId: z.string(),
    trigger: z
      .enum(CHECK_TRIGGERS)
      .describe("ping: a heartbeat ping; missed: a heartbeat's deadline passed without one"),
    startedAt: z.string(),
    durationMs: z.number().describe("Total of all steps (the timeline figure)"),
    passed: z.boolean(),
    traceId: z.string().describe("Sent in every request's traceparent header"),
    steps: z.array(StepResultView),
  })
  .meta({ id: "MonitorCheckResult" });
export type CheckResultView = z.infer<typeof CheckResultView>;
