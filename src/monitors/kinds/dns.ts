import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { type DnsRecordType, parseResolver } from "../../contracts/monitor-catalog.js";
import type { DnsAssertion } from "../../contracts/monitors.js";
import { BlockedAddressError, isPublicAddress } from "../../lib/http/address-policy.js";
import type { TransportError } from "../../lib/http/transport-error.js";
import { COMPARISONS } from "../assertions/operators.js";
import type { AssertionResult, CheckResult } from "../check-result.js";
import type { DnsDefinition } from "../definition.js";
import type { CheckRunDeps } from "./check-run-deps.js";
import type { MonitorKind } from "./monitor-kind.js";
import { checked, keptText, oneStepResult, since, timeoutMessage } from "./one-step.js";
import { privateResolverIssue } from "./targets.js";

// dns (docs/monitor-kinds.md#dns): resolve a name (A, AAAA, CNAME, MX, TXT) through the system's
// resolver or a given one, and assert on the answers. A name that does not exist (NXDOMAIN) or
// has no record of the type has zero answers; a resolver that fails or does not answer fails the
// check without assertions.

export const dnsKind: MonitorKind<DnsDefinition> = {
  scheduled: true,
  target: (definition) => `dns ${definition.recordType} ${definition.domain}`,
  privateTargets: (definition, allowSetting) =>
    privateResolverIssue(definition.resolver, allowSetting),
  run: runDns,
};

/** Each record type's lookup, with its answers as text ("10 mx.example.com" for MX). */
const LOOKUPS: Record<DnsRecordType, (resolver: Resolver, name: string) => Promise<string[]>> = {
  A: (r, name) => r.resolve4(name),
  AAAA: (r, name) => r.resolve6(name),
  CNAME: (r, name) => r.resolveCname(name),
  MX: async (r, name) =>
    (await r.resolveMx(name))
      .sort((a, b) => a.priority - b.priority)
      .map((mx) => `${mx.priority} ${mx.exchange}`),
  TXT: async (r, name) => (await r.resolveTxt(name)).map((chunks) => chunks.join("")),
};

/** Errors that mean "no answers" rather than "the lookup failed". */
const EMPTY = new Map([
  ["ENOTFOUND", "the name does not exist (NXDOMAIN)"],
  ["ENODATA", "no records of this type"],
]);

/** Whether any answer satisfies a positive operator; not_* operators pass when none does. */
function answerAssertion(assertion: DnsAssertion, answers: readonly string[]): AssertionResult {
  const negated = assertion.operator === "not_equals" || assertion.operator === "not_contains";
  const positive = negated
    ? assertion.operator === "not_equals"
      ? "equals"
      : "contains"
    : assertion.operator;
  const comparisons = answers.map((answer) => ({
    answer,
    ...COMPARISONS[positive](answer, assertion.value),
  }));
  const invalid = comparisons.find((c) => c.invalid);
  const hit = comparisons.find((c) => c.passed);
  const passed = !invalid && (negated ? hit === undefined : hit !== undefined);
  const message = invalid
    ? invalid.message
    : answers.length === 0
      ? "there are no answers"
      : hit
        ? `${JSON.stringify(hit.answer)} ${hit.message}`
        : `no answer ${positive === "matches" ? "matches" : positive === "equals" ? "equals" : "contains"} ${positive === "matches" ? `/${assertion.value}/` : JSON.stringify(assertion.value)}`;
  return checked(
    "answer",
    assertion.operator,
    assertion.value,
    hit?.answer ?? answers[0] ?? null,
    passed,
    message,
  );
}

function countAssertion(assertion: DnsAssertion, count: number): AssertionResult {
  const expected = Number(assertion.value.trim());
  const holds = {
    less_than: count < expected,
    greater_than: count > expected,
    equals: count === expected,
  }[assertion.operator as "less_than" | "greater_than" | "equals"];
  const words = { less_than: "fewer than", greater_than: "more than", equals: "exactly" }[
    assertion.operator as "less_than" | "greater_than" | "equals"
  ];
  const plural = (n: number) => `${n} answer${n === 1 ? "" : "s"}`;
  return checked(
    "answer_count",
    assertion.operator,
    assertion.value,
    String(count),
    holds,
    `${plural(count)}, ${holds ? "" : "not "}${words} ${expected}`,
  );
}

/** The resolver asked: a given server (checked by the SSRF policy), or the system's. */
function resolverFor(definition: DnsDefinition, deps: CheckRunDeps, timeoutMs: number): Resolver {
  // One try within the check's timeout: the resolver's own retries would outlast it.
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (definition.resolver === undefined) return resolver;
  const server = parseResolver(definition.resolver);
  if (!server || !isIP(server.host))
    throw Object.assign(new Error(`invalid resolver ${definition.resolver}`), {
      code: "invalid_request",
    });
  if (!deps.allowPrivateTargets && !isPublicAddress(server.host))
    throw new BlockedAddressError(definition.resolver, server.host);
  const host = isIP(server.host) === 6 ? `[${server.host}]` : server.host;
  resolver.setServers([`${host}:${server.port}`]);
  return resolver;
}

function lookupError(error: unknown, resolver: string): TransportError {
  if (error instanceof BlockedAddressError)
    return { code: "blocked_address", message: error.message };
  const code = (error as { code?: unknown }).code;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === "ETIMEOUT")
    return { code: "timeout", message: `${resolver} did not answer in time` };
  if (code === "invalid_request") return { code: "invalid_request", message: detail };
  if (code === "ECONNREFUSED")
    return { code: "refused", message: `${resolver} refused the query: ${detail}` };
  return { code: "dns", message: `DNS lookup failed (${String(code ?? "error")}): ${detail}` };
}

async function runDns(
  definition: DnsDefinition,
  deps: CheckRunDeps,
  signal: AbortSignal,
): Promise<CheckResult> {
  const startedAt = deps.clock.now().toISOString();
  const started = performance.now();
  const timeoutMs = definition.timeoutSeconds * 1000;
  const resolverName = definition.resolver ?? "the system's resolver";
  let answers: string[] = [];
  let empty: string | undefined;
  let transportError: TransportError | null = null;
  let resolver: Resolver | undefined;
  const cancel = () => resolver?.cancel();
  signal.addEventListener("abort", cancel, { once: true });
  // The resolver's timeout covers each query; this covers the whole lookup.
  let timer: NodeJS.Timeout | undefined;
  try {
    resolver = resolverFor(definition, deps, timeoutMs);
    const asked = resolver;
    answers = await Promise.race([
      LOOKUPS[definition.recordType](asked, definition.domain),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          asked.cancel();
          reject(Object.assign(new Error(timeoutMessage(timeoutMs)), { code: "ETIMEOUT" }));
        }, timeoutMs);
      }),
    ]);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (signal.aborted) transportError = { code: "aborted", message: "the check was cancelled" };
    else if (typeof code === "string" && EMPTY.has(code)) empty = EMPTY.get(code);
    else transportError = lookupError(error, resolverName);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", cancel);
  }
  const assertions = transportError
    ? []
    : definition.assertions.map((assertion) =>
        assertion.type === "answer"
          ? answerAssertion(assertion, answers)
          : countAssertion(assertion, answers.length),
      );
  const body = transportError
    ? null
    : answers.length > 0
      ? answers.join("\n")
      : (empty ?? "no answers");
  const kept = body === null ? undefined : keptText(body, deps.storedBodyBytes);
  return oneStepResult(
    {
      name: "Lookup",
      method: "DNS",
      url: `dns ${definition.recordType} ${definition.domain}`,
      startedAt,
      durationMs: since(started),
      transportError,
      assertions,
      responseBody: kept?.text ?? null,
      responseBodyTruncated: kept?.truncated ?? false,
    },
    deps,
  );
}
