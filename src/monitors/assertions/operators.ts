import type { Operator } from "../../contracts/monitor-catalog.js";

/** The verdict of one comparison, with the sentence shown beside it. */
export interface Comparison {
  passed: boolean;
  message: string;
  /** The comparison could not be made (a malformed pattern): the assertion fails whatever its polarity. */
  invalid?: true;
}

/** A number, or undefined: empty text, "abc", NaN and ±Infinity are not numbers. */
export function toNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

const quote = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);

function numeric(
  actual: string,
  expected: string,
  holds: (a: number, e: number) => boolean,
  words: string,
): Comparison {
  const a = toNumber(actual);
  const e = toNumber(expected);
  if (a === undefined) return { passed: false, message: `${quote(actual)} is not a number` };
  if (e === undefined)
    return { passed: false, message: `the expected value ${quote(expected)} is not a number` };
  const passed = holds(a, e);
  return { passed, message: `${a} is ${passed ? "" : "not "}${words} ${e}` };
}

function matches(actual: string, pattern: string): Comparison {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    return {
      passed: false,
      invalid: true,
      message: `invalid regular expression: ${(error as Error).message}`,
    };
  }
  const passed = regex.test(actual);
  return { passed, message: `${passed ? "matches" : "does not match"} /${pattern}/` };
}

/** Every operator (spec, Assertion): strings compare case-sensitively; less/greater than numerically. */
export const COMPARISONS: Record<Operator, (actual: string, expected: string) => Comparison> = {
  equals: (a, e) => ({
    passed: a === e,
    message: a === e ? `equals ${quote(e)}` : `${quote(a)} does not equal ${quote(e)}`,
  }),
  not_equals: (a, e) => ({
    passed: a !== e,
    message: a !== e ? `${quote(a)} differs from ${quote(e)}` : `equals ${quote(e)}`,
  }),
  contains: (a, e) => ({
    passed: a.includes(e),
    message: a.includes(e) ? `contains ${quote(e)}` : `does not contain ${quote(e)}`,
  }),
  not_contains: (a, e) => ({
    passed: !a.includes(e),
    message: a.includes(e) ? `contains ${quote(e)}` : `does not contain ${quote(e)}`,
  }),
  less_than: (a, e) => numeric(a, e, (x, y) => x < y, "less than"),
  greater_than: (a, e) => numeric(a, e, (x, y) => x > y, "greater than"),
  matches,
};

/** Rule 2: with nothing read (unresolved path, absent header) only the negative operators pass. */
export const PASSES_WHEN_ABSENT: ReadonlySet<Operator> = new Set(["not_equals", "not_contains"]);
