import { StatusPageData } from "../../src/contracts/status-page-data.js";
import type { MetaAccess } from "../../src/meta/meta-store.js";
import { renderStatusPage } from "../../src/status-pages/public/render-page.js";
import { buildStatusPageData } from "../../src/status-pages/public-data.js";
import { log } from "../harness/run.js";
import { round } from "../harness/stats.js";
import type { ServedPage } from "./page-checks.js";
import { BUILDS, COMPONENTS, DAYS, SLUG, timed } from "./settings.js";

/** Cold cost, which the cache hides: build and render directly, on the idle service. */
export async function coldCost(meta: MetaAccess, served: ServedPage, counter: { builds: number }) {
  const { pagePath, html } = served;
  const page = await meta.repos.statusPages.findBySlug(SLUG);
  if (!page) throw new Error("page not found");
  log(`Cold build: ${BUILDS} x buildStatusPageData + renderStatusPage`);
  const builtBefore = counter.builds;
  let data = await buildStatusPageData(meta, page, new Date());
  const build = await timed(BUILDS, async () => {
    data = await buildStatusPageData(meta, page, new Date());
  });
  const renderNow = new Date();
  const render = await timed(BUILDS, () =>
    renderStatusPage(data, { basePath: pagePath, now: renderNow }),
  );
  // What sending the cached HTML string costs on every request: Fastify takes its UTF-8 length
  // for content-length, then the socket encodes it. V8 holds a string with any character
  // beyond Latin-1 (the title's "—") at two bytes a character, which makes both slower.
  const htmlText = renderStatusPage(data, { basePath: pagePath, now: renderNow });
  let beyondLatin1 = false;
  for (let i = 0; i < htmlText.length && !beyondLatin1; i++)
    beyondLatin1 = htmlText.charCodeAt(i) > 0xff;
  const sendHtmlString = await timed(
    BUILDS * 5,
    () => Buffer.from(htmlText, "utf8").length === Buffer.byteLength(htmlText),
  );
  const both = await timed(BUILDS, async () => {
    const at = new Date();
    renderStatusPage(await buildStatusPageData(meta, page, at), { basePath: pagePath, now: at });
  });
  // What the /v1 route does on every request, cached payload or not: fastify-type-provider-zod's
  // serializer parses the payload with the response schema, then JSON.stringify.
  const v1Serialize = await timed(BUILDS, () => JSON.stringify(StatusPageData.parse(data)));
  const zodParse = await timed(BUILDS, () => StatusPageData.parse(data));
  const stringify = await timed(BUILDS, () => JSON.stringify(data));
  counter.builds = builtBefore;
  const cold = {
    build,
    render,
    buildAndRender: both,
    v1Serialize,
    zodParse,
    stringify,
    sendHtmlString,
    htmlBeyondLatin1: beyondLatin1,
  };
  // Where the bytes are: the 90-day strips of the HTML, the history arrays of the JSON.
  let stripBytes = 0;
  for (let at = htmlText.indexOf('<div class="history" '); at >= 0; ) {
    const end = htmlText.indexOf('<div class="history-legend"', at);
    stripBytes += Buffer.byteLength(htmlText.slice(at, end));
    at = htmlText.indexOf('<div class="history" ', end);
  }
  const sizes = {
    htmlHistoryStripBytes: stripBytes,
    htmlHistoryStripShare: round(stripBytes / html.length, 3),
    htmlBytesPerDayBar: Math.round(stripBytes / (COMPONENTS * DAYS)),
    jsonHistoryBytes: JSON.stringify(data.services.map((x) => x.history)).length,
  };
  log(`  sizes: ${JSON.stringify(sizes)}`);
  log(`  ${JSON.stringify(cold)}`);
  return { cold, sizes };
}
