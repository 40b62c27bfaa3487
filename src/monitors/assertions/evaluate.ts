import { assertionTarget } from "../../contracts/monitor-catalog.js";
import type { Assertion } from "../../contracts/monitors.js";
import type { AssertionResult, ResponseSnapshot } from "../check-result.js";
import { COMPARISONS, PASSES_WHEN_ABSENT } from "./operators.js";
import type { ReadCache } from "./read-value.js";
import { type AssertionTypeSpec, assertionSpec } from "./registry.js";

/**
 * Evaluates one assertion against a response, exactly per the spec's Assertion rules. Never
 * throws: a malformed regex, an empty path or a non-number fails only this assertion.
 */
export function evaluateAssertion(
  assertion: Assertion,
  response: ResponseSnapshot,
  cache: ReadCache = {},
): AssertionResult {
  const spec: AssertionTypeSpec = assertionSpec(assertion.type);
  const target = assertionTarget(assertion);
  const base = {
    type: assertion.type,
    operator: assertion.operator,
    ...(target === undefined ? {} : { target }),
    expected: assertion.value,
  };
  if (spec.target && (target === undefined || target.trim() === "")) {
    // Rule 3: an empty second input fails with an explicit message.
    return {
      ...base,
      actual: null,
      passed: false,
      message: `The ${spec.target.label} is empty: enter the ${spec.target.label} to read`,
    };
  }
  const read = spec.read(response, target ?? "", cache);
  if (read.kind === "invalid")
    return { ...base, actual: null, passed: false, message: read.message };
  if (read.kind === "absent") {
    const passed = PASSES_WHEN_ABSENT.has(assertion.operator);
    return {
      ...base,
      actual: null,
      passed,
      message: `${read.reason}, so the value is empty: ${passed ? "passes" : "fails"} under ${assertion.operator}`,
    };
  }
  const { passed, message, invalid } = COMPARISONS[assertion.operator](read.value, assertion.value);
  const actual = clip(read.value);
  if (!spec.negated || invalid) return { ...base, actual, passed: passed && !invalid, message };
  // body_not_contains: passes exactly when the positive condition does not hold.
  return {
    ...base,
    actual,
    passed: !passed,
    message: `${passed ? "present" : "absent"}: ${message}`,
  };
}

/** Results keep at most this much of a value read (a whole body would be stored on every check). */
export const MAX_ACTUAL_CHARS = 1024;
const clip = (value: string) =>
  value.length > MAX_ACTUAL_CHARS ? `${value.slice(0, MAX_ACTUAL_CHARS)}…` : value;
