import { Agent } from "undici";
import { CreateMonitorInput } from "../../src/contracts/monitors.js";
import type { Clock } from "../../src/lib/clock.js";
import type { ResolveAll } from "../../src/lib/http/outbound-agent.js";
import type { CheckResult, StepResult } from "../../src/monitors/check-result.js";
import { type MonitorDefinition, toDefinition } from "../../src/monitors/definition.js";
import { createCheckRunner } from "../../src/monitors/kinds/registry.js";

// Runs one check of a tcp, dns or tls monitor as the engine would: the input validated by the
// API's schema into a definition, then run by its kind with the SSRF guard on or off.

export interface KindCheckOptions {
  allowPrivateTargets?: boolean;
  clock?: Clock;
  resolve?: ResolveAll;
  storedBodyBytes?: number;
  signal?: AbortSignal;
}

/** The definition a user could save with this input (throws with the issues when invalid). */
export function definitionOf(input: Record<string, unknown>): MonitorDefinition {
  const parsed = CreateMonitorInput.safeParse({ name: "kind check", ...input });
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
  return toDefinition(parsed.data);
}

export async function runKindCheck(
  input: Record<string, unknown>,
  options: KindCheckOptions = {},
): Promise<CheckResult & { step: StepResult }> {
  const dispatcher = new Agent();
  try {
    const run = createCheckRunner({
      dispatcher,
      clock: options.clock ?? { now: () => new Date() },
      maxResponseBytes: 64 * 1024,
      storedBodyBytes: options.storedBodyBytes ?? 4096,
      allowPrivateTargets: options.allowPrivateTargets ?? true,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    const result = await run(definitionOf(input), options.signal ?? new AbortController().signal);
    const [step] = result.steps;
    if (!step || result.steps.length !== 1) throw new Error("expected one step");
    return { ...result, step };
  } finally {
    await dispatcher.close();
  }
}

/** The assertions of a result as "type passed|failed" lines, in order. */
export const verdicts = (step: StepResult): string[] =>
  step.assertions.map((a) => `${a.type} ${a.passed ? "passed" : "failed"}`);
