import { z } from "zod";

/** An object of integer counts, one per name (`{ debug: 3, info: 10, … }`). */
export const countsOf = <const N extends readonly string[]>(names: N) =>
  z.object(
    Object.fromEntries(names.map((name) => [name, z.number().int()])) as Record<
      N[number],
      z.ZodNumber
    >,
  );
