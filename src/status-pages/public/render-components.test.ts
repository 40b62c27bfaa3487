import { describe, expect, it } from "vitest";
import { StatusPageData } from "../../contracts/status-page-data.js";
import { buildHistory, buildStatusPageData, FIXTURE_NOW } from "./fixture.test-helper.js";
import { renderStatusPage } from "./render-page.js";

const options = { basePath: "/status/acme", now: FIXTURE_NOW };

/** `components` components whose every other day lost a check or two, as bench:status-pages seeds. */
function busyPage(components: number): StatusPageData {
  const data = buildStatusPageData({ components });
  for (const [c, component] of data.services.entries())
    component.history = buildHistory(
      FIXTURE_NOW,
      (i) => (i % 23 === c % 23 ? "degraded" : "operational"),
      (i) => ((i + c) % 2 === 0 ? { uptime: 99.931, checks: { run: 1440, passed: 1439 } } : {}),
    );
  return StatusPageData.parse(data);
}

describe("renderStatusPage: bytes of the history strips", () => {
  it("keeps a 50-component page with 90 days of history under 300 KB (issue 37)", () => {
    const html = renderStatusPage(busyPage(50), options);
    const bytes = Buffer.byteLength(html);
    // Each day's words were written twice (aria-label and tooltip) with a tooltip of markup:
    // about 1.4 MB for this page.
    expect(bytes).toBeLessThan(300 * 1024);
    expect(html.split("<i").length - 1).toBeGreaterThanOrEqual(50 * 90);
    expect(html).not.toContain('aria-label="Mon, Dec 16');
  });

  it("describes an operational day below 100% once, as its tooltip and what a screen reader reads", () => {
    const html = renderStatusPage(busyPage(1), options);
    expect(html).toContain('<i tabindex="0"><b>Wed, Dec 18: Operational, uptime 99.93%</b></i>');
    expect(html.split("Wed, Dec 18: Operational, uptime 99.93%").length - 1).toBe(1);
  });

  it("counts in the strip's label the plain days it leaves undescribed", () => {
    const data = buildStatusPageData({ components: 1 });
    const [component] = data.services;
    if (!component) throw new Error("no component");
    component.history = buildHistory(FIXTURE_NOW, (i) => (i < 10 ? "no_data" : "operational"));
    const html = renderStatusPage(StatusPageData.parse(data), options);
    expect(html).toContain(
      'aria-label="Component 1: daily history, 90 UTC days from Mon, Dec 16, 2024 to Sat, Mar 15, 2025, oldest first; not listed: 80 days operational, uptime 100%, 10 days with no data"',
    );
    expect(html.split('<i class="no_data"></i>').length - 1).toBe(10);
  });

  it("escapes what a day says", () => {
    const data = busyPage(1);
    const [component] = data.services;
    const last = component?.history.at(-1);
    if (!last) throw new Error("no day");
    last.incidents = [{ id: "inc_1", title: '<img src=x onerror="alert(1)">', severity: "high" }];
    const html = renderStatusPage(data, options);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("1 incident: &lt;img src=x onerror=&quot;alert(1)&quot;&gt;</b>");
  });
});
