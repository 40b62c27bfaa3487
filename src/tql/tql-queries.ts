import type { Ctx, DomainDeps } from "../context.js";
import type { TqlParameters, TqlResult } from "../contracts/tql.js";
import type { TqlService } from "./tql-service.js";

/** What running a TQL query needs: the TQL service (compiler, project guard, limits, admission). */
export type TqlCtx = Ctx<DomainDeps & { tql: TqlService }>;

/**
 * Runs one TQL SELECT confined to the project (docs/tql.md), with the values of its
 * `{name:Type}` placeholders. The transport names the project its caller may read (an API key's
 * own); refusals are domain errors with the query's position (and `parameters.<name>` for a value).
 */
export async function runTqlQuery({
  ctx,
  projectId,
  query,
  parameters,
}: {
  ctx: TqlCtx;
  projectId: string;
  query: string;
  parameters?: TqlParameters | undefined;
}): Promise<TqlResult> {
  return ctx.deps.tql.query(projectId, query, { parameters });
}
