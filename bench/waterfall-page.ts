/**
 * The in-page half of bench/waterfall.ts. Browser code is sent as text: the Node project has no
 * DOM types, and tsx's name-keeping helpers would not exist in the page.
 */
import type { Page } from "playwright-core";

/** Per-navigation figures, all in ms since the navigation started. */
export interface LoadFigures {
  paintedMs: number;
  rowsInDomMs: number;
  apiStartMs: number;
  apiEndMs: number;
  apiBytes: number;
  longTasks: number;
  longestTaskMs: number;
  domRows: number;
}

export interface ScrollFigures {
  steps: number;
  /** Longest gap between two animation frames while scrolling. */
  maxFrameMs: number;
  p95FrameMs: number;
  longTasks: number;
  longestTaskMs: number;
  maxDomRows: number;
  /** Steps after which no row was under the middle of the list (blank area shown). */
  blankSteps: number;
}

/** Resolves after the next frame was produced (the task after requestAnimationFrame). */
const AFTER_FRAME = `() => new Promise((resolve) => requestAnimationFrame(() => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => resolve();
  channel.port2.postMessage(0);
}))`;

/**
 * Runs before any page script on every navigation: records long tasks, and when the first span
 * row enters the DOM, the time of the frame that shows it.
 */
export const INIT_SCRIPT = `
window.__bench = { longTasks: [], rowsAt: undefined, paintedAt: undefined };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: "longtask", buffered: true });
const watchRows = new MutationObserver(() => {
  if (window.__bench.rowsAt !== undefined || !document.querySelector(".wf-rows > li")) return;
  window.__bench.rowsAt = performance.now();
  watchRows.disconnect();
  (${AFTER_FRAME})().then(() => { window.__bench.paintedAt = performance.now(); });
});
watchRows.observe(document, { childList: true, subtree: true });
`;

/** Waits for the painted mark of the current navigation, then reads its figures. */
export async function loadFigures(page: Page): Promise<LoadFigures> {
  // Polled: the app's CSP forbids the eval that waitForFunction would use.
  const deadline = Date.now() + 120_000;
  while (!(await page.evaluate("window.__bench?.paintedAt !== undefined"))) {
    if (Date.now() > deadline) throw new Error(`no span rows painted at ${page.url()}`);
    await page.waitForTimeout(10);
  }
  return (await page.evaluate(`(() => {
    const b = window.__bench;
    const api = performance.getEntriesByType("resource").find((e) => /\\/v1\\/traces\\/[0-9a-f]{32}\\/spans$/.test(e.name));
    return {
      paintedMs: b.paintedAt,
      rowsInDomMs: b.rowsAt,
      apiStartMs: api ? api.startTime : 0,
      apiEndMs: api ? api.responseEnd : 0,
      apiBytes: api ? api.decodedBodySize : 0,
      longTasks: b.longTasks.length,
      longestTaskMs: Math.max(0, ...b.longTasks.map((t) => t.duration)),
      domRows: document.querySelectorAll(".wf-rows > li").length,
    };
  })()`)) as LoadFigures;
}

/**
 * Scrolls `selector` through: `steps` scrollTop jumps from top to bottom, then `steps` mouse
 * wheel steps of 1,500 px back up, with a frame sampler and the long task list running.
 */
export async function scrollThrough(
  page: Page,
  selector: string,
  steps: number,
): Promise<ScrollFigures> {
  const rowSelector = selector === ".wf" ? ".wf-rows > li" : "tr";
  const check = `(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const rect = el.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + 60, rect.top + rect.height / 2);
    window.__bench.maxRows = Math.max(window.__bench.maxRows, el.querySelectorAll(${JSON.stringify(rowSelector)}).length);
    if (!hit || !hit.closest(${JSON.stringify(rowSelector)})) window.__bench.blank++;
  })`;
  await page.evaluate(`(async () => {
    await (${AFTER_FRAME})();
    const b = window.__bench;
    b.longTasks = []; b.gaps = []; b.sampling = true; b.maxRows = 0; b.blank = 0;
    let last = performance.now();
    const sample = (t) => { b.gaps.push(t - last); last = t; if (b.sampling) requestAnimationFrame(sample); };
    requestAnimationFrame(sample);
    const el = document.querySelector(${JSON.stringify(selector)});
    const max = el.scrollHeight - el.clientHeight;
    for (let i = 1; i <= ${steps}; i++) {
      el.scrollTop = Math.round((max * i) / ${steps});
      await (${AFTER_FRAME})();
      (${check})();
    }
  })()`);
  const box = await page.locator(selector).boundingBox();
  if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < steps; i++) {
    await page.mouse.wheel(0, -1500);
    await page.evaluate(`(async () => { await (${AFTER_FRAME})(); (${check})(); })()`);
  }
  // Long task entries are delivered after the task: give them a moment.
  await page.waitForTimeout(200);
  return (await page.evaluate(`(() => {
    const b = window.__bench;
    b.sampling = false;
    const gaps = b.gaps.slice(1).sort((x, y) => x - y);
    return {
      steps: ${steps * 2},
      maxFrameMs: gaps.length ? gaps[gaps.length - 1] : 0,
      p95FrameMs: gaps.length ? gaps[Math.floor(gaps.length * 0.95)] : 0,
      longTasks: b.longTasks.length,
      longestTaskMs: Math.max(0, ...b.longTasks.map((t) => t.duration)),
      maxDomRows: b.maxRows,
      blankSteps: b.blank,
    };
  })()`)) as ScrollFigures;
}

/** Clicks the toolbar button named `label`; ms to the next frame and the rows shown after. */
export async function measureToggle(page: Page, label: string) {
  return (await page.evaluate(`(async () => {
    const button = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === ${JSON.stringify(label)});
    const t0 = performance.now();
    button.click();
    await (${AFTER_FRAME})();
    const ms = performance.now() - t0;
    const shown = /Spans: ([\\d,]+) shown/.exec(document.querySelector(".wf-rows").getAttribute("aria-label"));
    return { ms, rows: shown ? Number(shown[1].replaceAll(",", "")) : -1 };
  })()`)) as { ms: number; rows: number };
}

/**
 * The baseline: on a same-origin page without the app, fetches the same columnar JSON the
 * waterfall uses and renders every span as a table row (indent, service, name, error mark, a
 * bar on the time axis) at once, as a page without virtualization would.
 */
export async function staticTable(page: Page, apiPath: string) {
  // Any same-origin document without the app will do: this is a small JSON answer.
  await page.goto("/api/auth/me");
  return (await page.evaluate(`(async () => {
    const b = window.__bench;
    b.longTasks = [];
    const t0 = performance.now();
    const response = await fetch(${JSON.stringify(apiPath)}, { credentials: "same-origin" });
    const text = await response.text();
    if (!response.ok) throw new Error(response.status + " " + text.slice(0, 300));
    const detail = JSON.parse(text);
    const t1 = performance.now();
    const s = detail.spans;
    const depth = new Int32Array(s.spanId.length);
    for (let i = 1; i < depth.length; i++) depth[i] = s.parent[i] >= 0 ? depth[s.parent[i]] + 1 : 0;
    const total = detail.durationMs || 1;
    const esc = (t) => t.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
    const parts = [];
    for (let i = 0; i < depth.length; i++) {
      const error = detail.statuses[s.status[i]] === "error";
      parts.push(
        "<tr" + (error ? ' class="err"' : "") + '><td style="padding-left:' + (4 + Math.min(depth[i], 32) * 12) + 'px">' +
        "<button>▾</button><button>" + esc(detail.services[s.service[i]]) + " " + esc(detail.names[s.name[i]]) + (error ? " <b>error</b>" : "") + "</button></td>" +
        '<td><div class="tl"><span class="bar" style="left:' + (s.startOffsetMs[i] / total) * 100 + "%;width:" + (s.durationMs[i] / total) * 100 + '%"></span></div></td></tr>'
      );
    }
    const html = parts.join("");
    document.documentElement.innerHTML =
      "<head><style>body{margin:0;font:13px system-ui}#static-scroll{height:700px;overflow:auto}" +
      "table{width:100%;table-layout:fixed;border-collapse:collapse}td{height:26px;padding:0;white-space:nowrap;overflow:hidden}" +
      "td:first-child{width:38%}button{border:0;background:none;font:inherit}.tl{position:relative;height:26px}" +
      ".bar{position:absolute;top:7px;height:12px;min-width:2px;background:#4f46e5}.err .bar{background:#dc2626}b{color:#fff;background:#dc2626}</style></head>" +
      '<body><div id="static-scroll"><table><tbody>' + html + "</tbody></table></div></body>";
    await (${AFTER_FRAME})();
    const t2 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 200));
    return {
      fetchMs: t1 - t0,
      renderMs: t2 - t1,
      totalMs: t2 - t0,
      bytes: text.length,
      domRows: document.querySelectorAll("tr").length,
      longTasks: b.longTasks.length,
      longestTaskMs: Math.max(0, ...b.longTasks.map((t) => t.duration)),
    };
  })()`)) as {
    fetchMs: number;
    renderMs: number;
    totalMs: number;
    bytes: number;
    domRows: number;
    longTasks: number;
    longestTaskMs: number;
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string };
}

/**
 * Tasks on the renderers' main threads (CrRendererMain) longer than `ms`, from a Chromium
 * trace: "RunTask" events (or, in builds without them, "ThreadControllerImpl::RunTask").
 */
export function runTasksOver(
  events: TraceEvent[],
  ms: number,
): { over: number; longestMs: number } {
  const main = new Set(
    events
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = events.filter((e) => e.ph === "X" && main.has(`${e.pid}:${e.tid}`));
  const name = onMain.some((e) => e.name === "RunTask")
    ? "RunTask"
    : "ThreadControllerImpl::RunTask";
  const durations = onMain.filter((e) => e.name === name).map((e) => (e.dur ?? 0) / 1000);
  return {
    over: durations.filter((d) => d > ms).length,
    longestMs: Math.max(0, ...durations),
  };
}
