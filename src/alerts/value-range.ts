import {
  ALERT_UNITS,
  type AlertUnit,
  type ConditionOp,
  formatAlertValue,
} from "../contracts/alert-catalog.js";

/**
 * What a rule's value can be: its unit and, where known, its bounds. A preset knows its own
 * (an error rate is a percentage); a TQL query's only what its `value` column's type says.
 */
export interface ValueRange {
  unit: AlertUnit | null;
  min?: number;
  max?: number;
  /** Whole numbers only (counts). */
  integer?: boolean;
}

/** Unsigned integer types, optionally Nullable or LowCardinality-wrapped. */
const UNSIGNED = /^(?:(?:Nullable|LowCardinality)\()*UInt(?:8|16|32|64|128|256)\)*$/;
const SIGNED = /^(?:(?:Nullable|LowCardinality)\()*Int(?:8|16|32|64|128|256)\)*$/;

/** The bounds a result column's type gives: unsigned integers are whole and never below 0. */
export function rangeOfType(type: string): ValueRange {
  if (UNSIGNED.test(type)) return { unit: null, min: 0, integer: true };
  if (SIGNED.test(type)) return { unit: null, integer: true };
  return { unit: null };
}

const can: Record<ConditionOp, (t: number, r: ValueRange) => boolean> = {
  ">": (t, r) => r.max === undefined || t < r.max,
  ">=": (t, r) => r.max === undefined || t <= r.max,
  "<": (t, r) => r.min === undefined || t > r.min,
  "<=": (t, r) => r.min === undefined || t >= r.min,
  "=": (t, r) =>
    (r.min === undefined || t >= r.min) &&
    (r.max === undefined || t <= r.max) &&
    (!r.integer || Number.isInteger(t)),
  "!=": (t, r) => r.min === undefined || r.max === undefined || r.min !== r.max || t !== r.min,
};

/** "a percentage from 0 to 100", "a whole number from 0", "in milliseconds, from 0". */
export function describeRange(range: ValueRange): string {
  const bounds =
    range.min !== undefined && range.max !== undefined
      ? `from ${formatAlertValue(range.min)} to ${formatAlertValue(range.max)}`
      : range.min !== undefined
        ? `${formatAlertValue(range.min)} or more`
        : range.max !== undefined
          ? `${formatAlertValue(range.max)} or less`
          : "any number";
  const kind =
    range.unit === "percent"
      ? "a percentage"
      : range.integer
        ? "a whole number"
        : range.unit
          ? `in ${ALERT_UNITS[range.unit].label}`
          : "a number";
  return `${kind}, ${bounds}`;
}

/**
 * Why a condition can never hold for values in the range (so the rule could never fire), or
 * null when it can. Unknown bounds refuse nothing.
 */
export function unreachableCondition(
  condition: { op: ConditionOp; threshold: number },
  range: ValueRange,
): string | null {
  const { op, threshold } = condition;
  if (can[op](threshold, range)) return null;
  const unit = range.unit === null ? "" : ALERT_UNITS[range.unit].symbol;
  const hint =
    range.unit === "percent"
      ? " Give the threshold in percent: 5 for 5%."
      : " Give another threshold.";
  return `the value is ${describeRange(range)}, so value ${op} ${formatAlertValue(threshold)}${unit === "%" ? "%" : unit ? ` ${unit}` : ""} can never hold and the rule could never fire.${hint}`;
}
