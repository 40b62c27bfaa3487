import {
  ASSERTION_TYPES,
  type CHECK_METHODS,
  type CheckTrigger,
  type ResultAssertionType,
} from "../../../../src/contracts/monitor-catalog";
import type { AssertionResultView, CheckResultView } from "../../../../src/contracts/monitors";

// How results read on screen for every kind: what started a check, what a step's failure and
// its stored text are called (HTTP: the response body; TCP: what was received; DNS: the
// answers; TLS: the certificate; PING: the ping's body), and what each assertion checked.

/** What started a check, in the result's summary line and the results table. */
export const TRIGGER_WORDS: Record<CheckTrigger, { summary: string; note: string | null }> = {
  scheduled: { summary: "scheduled", note: null },
  manual: { summary: "run by hand", note: "by hand" },
  ping: { summary: "a ping", note: "ping" },
  missed: { summary: "no ping came in time", note: "missed ping" },
};

interface StepWords {
  /** Before a transport error's message. */
  failed: string;
  /** The title of the step's stored text (`responseBody`). */
  body: string;
  /** The stored text is what the check is about: shown open. */
  open: boolean;
}

const HTTP_WORDS: StepWords = { failed: "Request failed", body: "Response body", open: false };

/** The words of a step that is not an HTTP request, by its method. */
const CHECK_WORDS: Record<(typeof CHECK_METHODS)[keyof typeof CHECK_METHODS], StepWords> = {
  TCP: { failed: "Connection failed", body: "Received", open: true },
  DNS: { failed: "Lookup failed", body: "Answers", open: true },
  TLS: { failed: "Handshake failed", body: "Certificate (as text)", open: false },
  PING: { failed: "Ping failed", body: "Ping body", open: true },
};

const isCheckMethod = (method: string): method is keyof typeof CHECK_WORDS =>
  Object.hasOwn(CHECK_WORDS, method);

export const stepWords = (method: string): StepWords =>
  isCheckMethod(method) ? CHECK_WORDS[method] : HTTP_WORDS;

/** Whether a check sent HTTP requests (whose traceparent carries its trace id). */
export const sentRequests = (result: CheckResultView): boolean =>
  result.steps.some((step) => !isCheckMethod(step.method));

/** What each assertion of a result is about ("status code", "days left"). */
const ASSERTION_WORDS: Record<ResultAssertionType, string> = {
  ...(Object.fromEntries(
    Object.keys(ASSERTION_TYPES).map((type) => [type, type.replaceAll("_", " ")]),
  ) as Record<keyof typeof ASSERTION_TYPES, string>),
  connect: "connection",
  received: "received text",
  answer: "an answer",
  answer_count: "number of answers",
  tls_handshake: "TLS handshake",
  tls_chain: "certificate chain",
  tls_hostname: "host name",
  tls_days_left: "days left",
  heartbeat: "ping",
};

export const assertionWords = (assertion: Pick<AssertionResultView, "type">): string =>
  ASSERTION_WORDS[assertion.type] ?? assertion.type.replaceAll("_", " ");
