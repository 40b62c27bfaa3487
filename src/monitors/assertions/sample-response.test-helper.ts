import type { Operator } from "../../contracts/monitor-catalog.js";
import type { Assertion } from "../../contracts/monitors.js";
import type { ResponseSnapshot } from "../check-result.js";
import { evaluateAssertion } from "./evaluate.js";

// A sample response and shorthands for evaluating one assertion against it, shared by the
// assertion tests (evaluate.test.ts, evaluate-operators.test.ts).

export const response = (over: Partial<ResponseSnapshot> = {}): ResponseSnapshot => ({
  status: 200,
  headers: { "content-type": "application/json; charset=utf-8", "x-count": "42", "x-empty": "" },
  body: '{"token":"abc","count":7,"price":1.50,"big":12345678901234567890,"name":"Alice","flag":true,"none":null,"empty":"","user":{"id":1,"roles":["a","b"]},"list":[],"obj":{},"text":"12abc"}',
  bodyTruncated: false,
  durationMs: 120,
  ...over,
});

export const run = (assertion: Assertion, over?: Partial<ResponseSnapshot>) =>
  evaluateAssertion(assertion, response(over));
export const json = (
  path: string,
  operator: Operator,
  value: string,
  over?: Partial<ResponseSnapshot>,
) => run({ type: "json_path", path, operator, value }, over);
export const header = (name: string, operator: Operator, value: string) =>
  run({ type: "header", name, operator, value });
export const body = (text: string, operator: "contains" | "equals" | "matches", value: string) =>
  run({ type: "body_not_contains", operator, value }, { body: text });
