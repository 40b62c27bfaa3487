import type { z } from "zod";
import { CreateMonitorInput, type HttpMonitorInput } from "../contracts/monitors.js";
import { type HttpDefinition, toDefinition } from "./definition.js";

// Shorthands for the monitor input tests (definition.test.ts, definition-steps.test.ts): a valid
// input to vary, and the schema's verdict on one.

export type Input = Record<string, unknown>;
export const step = (over: Input = {}): Input => ({
  url: "https://api.example.com/health",
  ...over,
});
export const monitor = (over: Input = {}): Input => ({
  name: "Health",
  type: "api",
  steps: [step()],
  ...over,
});
export const statusEquals = { type: "status_code", operator: "equals", value: "200" };
export const assertions = (n: number) => Array.from({ length: n }, () => statusEquals);

export const parse = (input: unknown) => CreateMonitorInput.safeParse(input);
/** The parsed input of any kind. */
export const okAny = (input: unknown) => {
  const result = parse(input);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data;
};
/** The parsed input of an api or flow monitor. */
export const ok = (input: unknown) => okAny(input) as z.output<typeof HttpMonitorInput>;
/** The definition of an api or flow monitor. */
export const httpDefinition = (input: unknown) => toDefinition(ok(input)) as HttpDefinition;
/** The issues as "path: message" lines. */
export const issues = (input: unknown): string[] => {
  const result = parse(input);
  if (result.success) throw new Error("expected the input to be refused");
  return result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};
export const issuePaths = (input: unknown) => issues(input).map((line) => line.split(": ")[0]);
