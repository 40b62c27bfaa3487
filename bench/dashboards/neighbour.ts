import { systemCtx } from "../../src/context.js";
import { createProject } from "../../src/projects/projects.js";
import type { DashboardHarness } from "../../test/helpers/dashboard.js";
import { addKey } from "../../test/helpers/projects.js";
import { OUTSIDER } from "../../test/helpers/roles.js";
import { sleep } from "../harness/run.js";
import { percentileOf, round } from "../harness/stats.js";
import { insertSyntheticSpans } from "../harness/synthetic-spans.js";

/** What the tenant next door asks, one after another: a TQL query over its own last hour. */
const PACE_MS = 700;
const QUERY =
  "SELECT service_name, count() AS spans, quantile(0.95)(duration_ms) AS p95 FROM traces WHERE timestamp > now() - INTERVAL 1 HOUR GROUP BY service_name";

/**
 * A project of another organization (the outsider's) with spans of its own and a key, asking a
 * TQL query every PACE_MS while `busy` lasts (below its key's 100 requests a minute): its latency
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
    async during(busy: Promise<unknown>) {
      let done = false;
      const finished = busy.finally(() => {
        done = true;
      });
      const ms: number[] = [];
      let failed = 0;
      while (!done || ms.length + failed === 0) {
        const started = performance.now();
        const response = await dash.service.fetch("/v1/tql", {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({ query: QUERY }),
        });
        await response.arrayBuffer();
        if (response.status === 200) ms.push(performance.now() - started);
        else failed++;
        await sleep(Math.max(0, started + PACE_MS - performance.now()));
      }
      await finished;
      return {
        queries: ms.length,
        failed,
        p50Ms: round(percentileOf(ms, 50)),
        p99Ms: round(percentileOf(ms, 99)),
        maxMs: round(Math.max(...ms)),
      };
    },
  };
}
