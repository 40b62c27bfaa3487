import type { z } from "zod";
import { type FieldIssue, InvalidInputError } from "./domain-errors.js";

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
  throw InvalidInputError.forIssues(issues);
}

/**
 * Each id of a list that is not in `known`, as an issue naming its place (`field.i`): a list of
 * references checked against what the caller may refer to.
 */
export function unknownIds(
  field: string,
  ids: readonly string[],
  known: ReadonlySet<string>,
  message: (id: string) => string,
): FieldIssue[] {
  return [...ids.entries()].flatMap(([i, id]) =>
    known.has(id) ? [] : [{ field: `${field}.${i}`, message: message(id) }],
  );
}
