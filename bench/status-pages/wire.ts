import type { RunningService } from "../../src/cli/serve.js";
import { log } from "../harness/run.js";
import { compressionCosts, getWire, wireSizes } from "../harness/wire-bytes.js";
import type { ServedPage } from "./page-checks.js";
import { BUILDS } from "./settings.js";

/** Issue 37: a 50-component page and its /v1 payload at most this big before compression. */
export const TARGET_BYTES = 300_000;
/** What they weighed before issue 37 (commit d2a78ad, this bench's page). */
export const BASELINE_BYTES = { html: 1_498_314, v1Json: 751_220 };
/** The status pages' own encoders: each answer compressed once per build (send-document.ts). */
const ONCE_PER_BUILD = { br: 5, gzip: 6 };

/** The page's answers as br, gzip and identity, and what compressing them once per build costs. */
export async function wireFigures(service: RunningService, served: ServedPage) {
  const { pagePath, dataPath, headers, html, v1Json } = served;
  const url = (path: string) => `${service.url}${path}`;
  const days = await getWire(url(`${dataPath}?history=days`), headers);
  const wire = {
    html: await wireSizes(url(pagePath)),
    v1: await wireSizes(url(dataPath), headers),
    // Before issue 37 the route took no query (a 400): only the one form then.
    v1Days: days.status === 200 ? await wireSizes(url(`${dataPath}?history=days`), headers) : null,
    publicJson: await wireSizes(url(`${pagePath}.json`)),
  };
  const runs = Math.max(3, Math.round(BUILDS / 4));
  const compression = {
    html: compressionCosts(html, runs, ONCE_PER_BUILD),
    v1: compressionCosts(v1Json, runs, ONCE_PER_BUILD),
  };
  const bytes = {
    figure: { html: html.length, v1Json: v1Json.length },
    baseline: BASELINE_BYTES,
    target: TARGET_BYTES,
    met: html.length <= TARGET_BYTES && v1Json.length <= TARGET_BYTES,
    smallerThanBaseline: {
      html: Math.round((BASELINE_BYTES.html / html.length) * 10) / 10,
      v1Json: Math.round((BASELINE_BYTES.v1Json / v1Json.length) * 10) / 10,
    },
  };
  log(`Wire: ${JSON.stringify({ wire, bytes })}`);
  return { wire, compression, bytes };
}
export type StatusWireFigures = Awaited<ReturnType<typeof wireFigures>>;
