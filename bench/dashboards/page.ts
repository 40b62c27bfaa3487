/**
 * The in-page half of bench/dashboards.ts: when every panel of the opened dashboard has left its
 * loading state, the time of the frame that shows them. Browser code is sent as text (the Node
 * project has no DOM types), as bench/waterfall-page.ts does.
 */
import type { Page } from "playwright-core";

export interface PaintFigures {
  /** From the navigation's start to the frame showing every panel's data (or its error). */
  paintedMs: number;
  panels: number;
  errors: number;
  /** Panel query requests the page sent (a variable's included). */
  queries: number;
  /** When the dashboard's own GET ended, the first query started, and the last one ended. */
  dashboardReadMs: number;
  firstQueryStartMs: number;
  lastQueryEndMs: number;
}

/** Runs before any page script: records when no `.dsh-panel` is loading any more, then a frame. */
export const INIT_SCRIPT = `
window.__bench = { doneAt: undefined, paintedAt: undefined };
const settled = () => {
  const panels = document.querySelectorAll(".dsh-panel");
  if (panels.length === 0) return false;
  for (const p of panels) if (p.getAttribute("data-state") === "loading") return false;
  return true;
};
const watch = new MutationObserver(() => {
  if (window.__bench.doneAt !== undefined || !settled()) return;
  window.__bench.doneAt = performance.now();
  watch.disconnect();
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { window.__bench.paintedAt = performance.now(); };
    channel.port2.postMessage(0);
  });
});
watch.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-state"] });
`;

/** Opens `path` and waits until every panel is painted; throws after two minutes. */
export async function paint(page: Page, path: string): Promise<PaintFigures> {
  await page.goto(path);
  // Polled: the app's CSP forbids the eval that waitForFunction would use.
  const deadline = Date.now() + 120_000;
  while (!(await page.evaluate("window.__bench?.paintedAt !== undefined"))) {
    if (Date.now() > deadline) throw new Error(`panels never all painted at ${page.url()}`);
    await page.waitForTimeout(10);
  }
  return (await page.evaluate(`(() => {
    const queries = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/v1/dashboards/query"));
    return {
      paintedMs: window.__bench.paintedAt,
      panels: document.querySelectorAll(".dsh-panel").length,
      errors: document.querySelectorAll('.dsh-panel[data-state="error"]').length,
      queries: queries.length,
      dashboardReadMs: Math.max(0, ...performance.getEntriesByType("resource").filter((e) => e.name.split("/").at(-1).startsWith("dsh_")).map((e) => e.responseEnd)),
      firstQueryStartMs: Math.min(...queries.map((e) => e.startTime)),
      lastQueryEndMs: Math.max(0, ...queries.map((e) => e.responseEnd)),
    };
  })()`)) as PaintFigures;
}
