import { createApiKey } from "../../src/auth/api-keys.js";
import type { RunningService } from "../../src/cli/serve.js";
import { systemCtx } from "../../src/context.js";
import { createProject } from "../../src/projects/projects.js";
import { NEIGHBOUR_QUERY, neighbourAsks } from "../harness/neighbour-asks.js";
import { insertSyntheticSpans } from "../harness/synthetic-spans.js";

/**
 * Another project of the instance with spans of its own and its own key, asking a TQL query
 * (harness/neighbour-asks.ts) while `busy` lasts: what a neighbour feels while someone explores.
 */
export async function neighbour(service: RunningService, orgId: string, spans: number) {
  const ctx = systemCtx(service.deps.domain);
  const project = await createProject({ ctx, input: { name: "next door", orgId } });
  await insertSyntheticSpans(service.deps.telemetry, project.id, spans);
  const { key } = await createApiKey({
    ctx,
    projectId: project.id,
    input: { name: "next door", role: "full" },
  });
  const url = new URL("/v1/tql", service.url);
  return {
    during: (busy: Promise<unknown>) =>
      neighbourAsks(async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({ query: NEIGHBOUR_QUERY }),
        });
        await response.arrayBuffer();
        return response.status;
      }, busy),
  };
}
