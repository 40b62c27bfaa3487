import type { FastifyInstance } from "fastify";
import { z } from "zod";

/** The query of a route that takes no query parameters: any one is unknown. */
const NoQuery = z.object({}).strict();

const isStrictObject = (schema: unknown): boolean =>
  schema instanceof z.ZodObject && schema.def.catchall instanceof z.ZodNever;

/**
 * Every route of this scope rejects unknown query parameters with a 400 naming them (docs/design.md §4):
 * a route without a query schema gets an empty strict one, and a route whose query schema is
 * not strict fails at start-up, so a lenient one cannot slip in.
 */
export function useStrictQueries(app: FastifyInstance): void {
  app.addHook("onRoute", (route) => {
    const schema = route.schema;
    if (!schema || schema.hide) return;
    if (schema.querystring === undefined) schema.querystring = NoQuery;
    else if (!isStrictObject(schema.querystring))
      throw new Error(`${route.method} ${route.url}: its query schema must be a strict zod object`);
  });
}
