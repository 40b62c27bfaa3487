import { systemCtx } from "../../src/context.js";
import { createProject } from "../../src/projects/projects.js";
import type { DashboardHarness } from "../../test/helpers/dashboard.js";
import { addKey } from "../../test/helpers/projects.js";
import { OUTSIDER } from "../../test/helpers/roles.js";
import { NEIGHBOUR_QUERY, neighbourAsks } from "../harness/neighbour-asks.js";
import { insertSyntheticSpans } from "../harness/synthetic-spans.js";

/**
 * A project of another organization (the outsider's) with spans of its own and a key, asking a
 * TQL query (harness/neighbour-asks.ts) while `busy` lasts: its latency
 * is what a neighbour feels.
 */
export async function neighbour(dash: DashboardHarness, spans: number) {
  const { deps } = dash.service;
  const user = await deps.meta.repos.users.findByEmail(OUTSIDER.email);
  const [membership] = user ? await deps.meta.repos.users.listMemberships(user.id) : [];
  const project = await createProject({
    ctx: systemCtx(deps.domain),
    input: { name: "next door", orgId: membership?.orgId ?? "" },
  });
  await insertSyntheticSpans(deps.telemetry, project.id, spans);
  const key = await addKey(dash.service, project.id, { name: "bench", role: "full" });
  return {
    /** Asks until `busy` settles (at least once); answers p50/p99 in ms and the failures. */
    during: (busy: Promise<unknown>) =>
      neighbourAsks(async () => {
        const response = await dash.service.fetch("/v1/tql", {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({ query: NEIGHBOUR_QUERY }),
        });
        await response.arrayBuffer();
        return response.status;
      }, busy),
  };
}
