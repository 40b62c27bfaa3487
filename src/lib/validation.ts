import type { z } from "zod";
import { InvalidInputError } from "./errors.js";

/** Parses input with a zod schema; failures become an InvalidInputError naming each field. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix = "",
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "input",
    message: issue.message,
  }));
  throw new InvalidInputError(issues.map((i) => `${i.field}: ${i.message}`).join("; "), issues);
}
