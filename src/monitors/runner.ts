import type { Dispatcher } from "undici";
import { parseJsonPath } from "../contracts/json-path.js";
import { BODY_METHODS, VARIABLE_PLACEHOLDER } from "../contracts/monitor-catalog.js";
import type { Clock } from "../lib/clock.js";
import { utf8Prefix } from "../lib/http/bounded-body.js";
import { redactUrl } from "../lib/http/redact-url.js";
import { pooledRandomBytes } from "../lib/random-pool.js";
import { evaluateAssertion } from "./assertions/evaluate.js";
import { jsonValueText, parseBodyOnce, resolveJsonPath } from "./assertions/json-path.js";
import type { ReadCache } from "./assertions/read-value.js";
import type { CheckResult, ResponseSnapshot, StepResult } from "./check-result.js";
import type { HttpDefinition, StepDefinition } from "./definition.js";
import { DEFAULT_USER_AGENT, executeRequest } from "./http-request.js";
import { withTlsDetails } from "./kinds/tls-details.js";

// The api/flow kind's runner: HTTP steps in order (the engine's runner, createCheckRunner in
// kinds/registry.ts, dispatches each definition to its kind).

/** What running HTTP steps needs: the outbound agent, a clock, the body limits and a random source. */
export interface RunnerDeps {
  /** An agent from createOutboundAgent (it applies the private-address policy). */
  dispatcher: Dispatcher;
  clock: Clock;
  /** Response bytes read per request (config: monitors.maxResponseBytes). */
  maxResponseBytes: number;
  /** Bytes of a failed step's body kept in its result (config: monitors.storedBodyBytes). */
  storedBodyBytes: number;
  /** Source of trace and span ids; node:crypto by default (pooled). */
  randomBytes?: (size: number) => Buffer;
}

export interface RunCheckOptions {
  /** Cancels the check; the running step fails with code "aborted" and the rest are skipped. */
  signal?: AbortSignal;
}

/** Replaces every `{{name}}` whose variable is set; unset ones stay literal (spec: flow transitions). */
export function substituteVariables(text: string, variables: ReadonlyMap<string, string>): string {
  return text.replace(
    VARIABLE_PLACEHOLDER,
    (placeholder, name: string) => variables.get(name) ?? placeholder,
  );
}

/**
 * Runs an api or flow monitor's steps in order (spec: Assertion, Monitor and webhook transitions): a failed
 * step stops the run and skips the rest, a passed step's extractions feed later steps. Never
 * throws for anything the target does; failures are in the result.
 */
export async function runCheck(
  definition: Pick<HttpDefinition, "steps" | "timeoutSeconds">,
  deps: RunnerDeps,
  options: RunCheckOptions = {},
): Promise<CheckResult> {
  const random = deps.randomBytes ?? pooledRandomBytes;
  const startedAt = deps.clock.now().toISOString();
  const traceId = randomId(random, 16);
  const variables = new Map<string, string>();
  const steps: StepResult[] = [];
  let durationMs = 0;
  let stopped = false;
  for (const step of definition.steps) {
    if (stopped) {
      steps.push(skippedStep(step));
      continue;
    }
    const result = await runStep(step, variables, {
      deps,
      timeoutMs: definition.timeoutSeconds * 1000,
      traceparent: `00-${traceId}-${randomId(random, 8)}-01`,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    steps.push(result);
    durationMs += result.durationMs ?? 0;
    if (result.status === "failed") stopped = true;
    for (const [name, value] of Object.entries(result.extracted)) variables.set(name, value);
  }
  return { passed: !stopped, startedAt, durationMs, steps, traceId };
}

interface StepContext {
  deps: RunnerDeps;
  timeoutMs: number;
  traceparent: string;
  signal?: AbortSignal;
}

async function runStep(
  step: StepDefinition,
  variables: ReadonlyMap<string, string>,
  context: StepContext,
): Promise<StepResult> {
  const url = substituteVariables(step.url, variables);
  const body =
    step.body !== undefined && BODY_METHODS.has(step.method)
      ? substituteVariables(step.body, variables)
      : undefined;
  const headers = step.headers.map(({ name, value }) => ({
    name,
    value: substituteVariables(value, variables),
  }));
  // The traceparent sent (a step's own header wins) finds the connection's certificate.
  const traceparent =
    headers.find((h) => h.name.toLowerCase() === "traceparent")?.value ?? context.traceparent;
  const request = {
    method: step.method,
    url,
    headers,
    ...(body === undefined ? {} : { body }),
    followRedirects: step.followRedirects,
  };
  const options = {
    dispatcher: context.deps.dispatcher,
    timeoutMs: context.timeoutMs,
    maxResponseBytes: context.deps.maxResponseBytes,
    traceparent: context.traceparent,
    userAgent: DEFAULT_USER_AGENT,
    ...(context.signal ? { signal: context.signal } : {}),
  };
  // The request is built here, so the closures made per step only call (docs/monitors.md, "Hot
  // functions").
  const { value: outcome, tls } = await withTlsDetails(
    traceparent,
    () => context.deps.clock.now(),
    () => executeRequest(request, options),
  );
  // Results are shown to every member: credentials in the URL are masked, never stored.
  // An https step (or one redirected to https) carries the certificate it was answered over.
  const https = tls !== null || /^https:/i.test(url);
  const base = {
    name: step.name,
    method: step.method,
    url: redactUrl(url),
    ...(https ? { tls } : {}),
  };
  if (!outcome.ok) {
    // Rule 1: no response, so no assertion is evaluated; the transport error is shown instead.
    return {
      ...base,
      status: "failed",
      statusCode: null,
      durationMs: outcome.durationMs,
      transportError: outcome.error,
      assertions: [],
      extracted: {},
      responseBody: null,
      responseBodyTruncated: false,
    };
  }
  const { response } = outcome;
  const cache: ReadCache = {};
  const assertions = step.assertions.map((assertion) =>
    evaluateAssertion(assertion, response, cache),
  );
  const passed = assertions.every((assertion) => assertion.passed);
  const stored = passed ? null : storedBody(response, context.deps.storedBodyBytes);
  return {
    ...base,
    status: passed ? "passed" : "failed",
    statusCode: response.status,
    durationMs: response.durationMs,
    transportError: null,
    assertions,
    // Extraction happens only on a step that passed.
    extracted: passed ? extractVariables(step, response.body, cache) : {},
    responseBody: stored?.body ?? null,
    responseBodyTruncated: stored?.truncated ?? false,
  };
}

/** A path that resolves sets its variable; one that does not leaves it unset. */
function extractVariables(
  step: StepDefinition,
  body: string,
  cache: ReadCache,
): Record<string, string> {
  // No prototype: an extracted name such as __proto__ stays plain data.
  const extracted: Record<string, string> = Object.create(null);
  for (const { name, path } of step.extract) {
    const parsed = parseJsonPath(path);
    if (!parsed.ok) continue;
    const document = parseBodyOnce(body, cache);
    if (!document.ok) return extracted;
    const resolved = resolveJsonPath(document.value, parsed.segments);
    if (resolved.found) extracted[name] = jsonValueText(resolved.value);
  }
  return extracted;
}

function storedBody(response: ResponseSnapshot, maxBytes: number) {
  const bytes = Buffer.from(response.body, "utf8");
  const kept = utf8Prefix(bytes, maxBytes);
  return {
    body: kept.toString("utf8"),
    truncated: response.bodyTruncated || kept.length < bytes.length,
  };
}

function skippedStep(step: StepDefinition): StepResult {
  return {
    name: step.name,
    status: "skipped",
    method: step.method,
    url: redactUrl(step.url),
    statusCode: null,
    durationMs: null,
    transportError: null,
    assertions: [],
    extracted: {},
    responseBody: null,
    responseBodyTruncated: false,
  };
}

/** Lowercase hex of `size` random bytes; W3C forbids an all-zero trace or span id. */
function randomId(random: (size: number) => Buffer, size: number): string {
  const bytes = Buffer.alloc(size);
  random(size).copy(bytes, 0, 0, size);
  if (bytes.every((byte) => byte === 0)) bytes[size - 1] = 1;
  return bytes.toString("hex");
}
