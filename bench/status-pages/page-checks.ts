import type { RunningService } from "../../src/cli/serve.js";
import { log } from "../harness/run.js";
import { round } from "../harness/stats.js";
import type { SeededIncidents } from "./seed-incidents.js";
import type { SeededPage } from "./seed-page.js";
import { COMPONENTS, DAYS, GROUPS, INCIDENTS, SLUG } from "./settings.js";

/** Counts the payload builds (the cache calls days() once per build). */
export function countPayloadBuilds(seeded: SeededPage) {
  const { meta } = seeded;
  const counter = { builds: 0 };
  const stateRepo = meta.repos.statusPageDays;
  const readDays = stateRepo.days.bind(stateRepo);
  stateRepo.days = (...args: Parameters<typeof readDays>) => {
    counter.builds++;
    return readDays(...args);
  };
  return counter;
}

/** What the page serves: the payload holds every service, day and incident; both routes answer. */
export async function checkServedPage(
  service: RunningService,
  seeded: SeededPage,
  incidents: SeededIncidents,
  history: { dayRows: number; windows: number; setupSeconds: number },
) {
  const { apiKey, monitorCount } = seeded;
  const { publicUpdates } = incidents;
  const { dayRows, setupSeconds } = history;
  const pagePath = `/status/${SLUG}`;
  const dataPath = `/v1/status-pages/${SLUG}/data`;
  const headers = { "x-api-key": apiKey };
  const payload = (await (await fetch(`${service.url}${pagePath}.json`)).json()) as {
    services: { history: { checks: { run: number } }[] }[];
    incidents: { updates: unknown[]; status: string }[];
    maintenance: unknown[];
    page: { status: string };
  };
  const historyDays = payload.services.map((s) => s.history.length);
  const measuredDays = payload.services.flatMap((s) => s.history).filter((d) => d.checks.run > 0);
  if (
    payload.services.length !== COMPONENTS ||
    historyDays.some((n) => n !== DAYS) ||
    measuredDays.length !== COMPONENTS * DAYS ||
    payload.incidents.length !== INCIDENTS ||
    payload.incidents.some((i) => i.updates.length < 2)
  )
    throw new Error(
      `unexpected payload: ${payload.services.length} services, history days ${[...new Set(historyDays)]}, ` +
        `${measuredDays.length} measured days, ${payload.incidents.length} incidents`,
    );
  const htmlResponse = await fetch(`${service.url}${pagePath}`);
  const html = Buffer.from(await htmlResponse.arrayBuffer());
  const v1Response = await fetch(`${service.url}${dataPath}`, { headers });
  const v1Json = Buffer.from(await v1Response.arrayBuffer());
  if (htmlResponse.status !== 200 || v1Response.status !== 200)
    throw new Error(`GET ${pagePath} ${htmlResponse.status}, GET ${dataPath} ${v1Response.status}`);
  const pageFacts = {
    components: payload.services.length,
    groups: GROUPS.length,
    monitors: monitorCount,
    historyDays: DAYS,
    dayRows,
    incidents: payload.incidents.length,
    activeIncidents: payload.incidents.filter((i) => i.status === "active").length,
    publicUpdates,
    maintenanceWindows: history.windows,
    maintenanceShown: payload.maintenance.length,
    pageStatus: payload.page.status,
    htmlBytes: html.length,
    v1JsonBytes: v1Json.length,
    setupSeconds: round(setupSeconds, 1),
  };
  log(`Payload: ${JSON.stringify(pageFacts)}`);
  return { pagePath, dataPath, headers, html, v1Json, pageFacts };
}
export type ServedPage = Awaited<ReturnType<typeof checkServedPage>>;
