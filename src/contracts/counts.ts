import { z } from "zod";

/** `{name: count}` for every name of a closed set (levels, severities), all present. */
export const countsOf = <const N extends readonly string[]>(names: N) =>
  z.object(
    Object.fromEntries(names.map((name) => [name, z.number().int()])) as Record<
      N[number],
      z.ZodNumber
    >,
  );
