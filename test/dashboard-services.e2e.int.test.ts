import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDetail } from "../src/contracts/services.js";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { hexId, type SpanSpec, sendOtlp, tracesBody } from "./helpers/otlp.js";
import { until } from "./helpers/page-poll.js";
import { addKey } from "./helpers/projects.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * The Services area in Chromium on the demo's shop (browser → gateway → orders → PostgreSQL):
 * the list, a service's slowest route, the map and an edge's traces; then a map of services
 * sent by hand, by keyboard.
 */
describe.skipIf(!chromiumAvailable)("dashboard services", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;
  let base: string;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    await dash.seedDemo(1_500);
    base = `/projects/${dash.projectId}`;
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  const search = (page: Page) => new URL(page.url()).searchParams;
  /** orders-service's operation with the highest p95 over the demo, as GET /v1/services/… says. */
  const slowestOperation = async () => {
    const key = await addKey(dash.service, dash.projectId, { name: "read", role: "full" });
    const response = await dash.service.fetch("/v1/services/orders-service?time_range=6h", {
      headers: { "x-api-key": key },
    });
    const detail = (await response.json()) as ServiceDetail;
    const [slowest] = [...detail.operations].sort((a, b) => (b.p95Ms ?? 0) - (a.p95Ms ?? 0));
    return slowest?.operation;
  };
  /** Reloads until the selector shows: the ingest pairs spans and writes edges a little later. */
  const reloadUntil = async (page: Page, selector: string) => {
    const deadline = Date.now() + 30_000;
    while ((await page.locator(selector).count()) === 0) {
      if (Date.now() > deadline) throw new Error(`never showed: ${selector}`);
      await page.waitForTimeout(1_000);
      await page.reload();
      await page.locator("#content h1").waitFor();
      await page.locator("#content .loading").first().waitFor({ state: "detached" });
    }
  };

  it("finds a service's slowest route from the list, then follows an edge of the map to its traces", async () => {
    const { page, console } = await dash.newPage({ width: 1440, height: 900 });
    await dash.signIn(page);
    await page.goto(`${base}/services?range=6h`);
    await page.getByRole("heading", { name: "Services", level: 1 }).waitFor();
    const serviceRows = page.locator(".svc-table tbody tr");
    await serviceRows.first().waitFor();
    const names = await page.locator(".svc-table tbody th").allTextContents();
    expect(names).toEqual(expect.arrayContaining(["api-gateway", "orders-service"]));
    // Each row: a rate, an error rate, three percentiles and two trends.
    const gateway = page.locator(".svc-table tbody tr", { hasText: "api-gateway" });
    expect(await gateway.locator("td.num").count()).toBe(5);
    expect(await gateway.locator("svg.svc-trend").count()).toBe(2);
    await dash.screenshot(page, "services-list");

    // The search narrows the list and goes to the URL.
    await page.getByLabel("Search services").fill("orders");
    await page.waitForURL((url) => url.searchParams.get("q") === "orders");
    await until(page, `document.querySelectorAll(".svc-table tbody tr").length === 1`);
    // Sorting by p95, slowest first.
    await page.getByRole("button", { name: "p95" }).click();
    await page.waitForURL((url) => url.searchParams.get("sort") === "p95");
    expect(search(page).get("order")).toBe("desc");

    await page.getByRole("link", { name: "orders-service", exact: true }).click();
    await page.waitForURL(`**${base}/services/orders-service?**`);
    await page.getByRole("heading", { name: "orders-service", level: 1 }).waitFor();
    const operations = page.locator(".svc-operations tbody tr");
    await operations.first().waitFor();
    // The operations sort by p95 too, slowest first.
    await page.locator(".svc-operations").getByRole("button", { name: "p95" }).click();
    await until(
      page,
      `document.querySelector(".svc-operations th[aria-sort]")?.textContent.startsWith("p95") &&
       document.querySelector(".svc-operations th[aria-sort]")?.getAttribute("aria-sort") === "descending"`,
    );
    // The first is the slowest route the read API names (the report or an assistant's outlier).
    expect(await operations.first().locator("th a").textContent()).toBe(await slowestOperation());
    // Callers, callees, errors and instances are on the page.
    await page.getByRole("heading", { name: "Called by" }).waitFor();
    expect(await page.locator("section", { hasText: "Called by" }).textContent()).toContain(
      "api-gateway",
    );
    expect(
      await page
        .locator("section", { hasText: /^Calls/ })
        .first()
        .textContent(),
    ).toMatch(/postgresql/);
    expect(await page.locator(".svc-errors li").count()).toBeGreaterThan(0);
    await dash.screenshot(page, "services-service");

    // The slowest route's traces: the traces screen, filtered to the service and the operation.
    const slowest = (await operations.first().locator("th a").textContent()) ?? "";
    await operations.first().locator("th a").click();
    await page.waitForURL((url) => url.pathname === `${base}/traces`);
    expect(JSON.parse(search(page).get("filters") ?? "[]")).toEqual([
      { field: "service_name", op: "=", value: "orders-service" },
      { field: "operation_name", op: "=", value: slowest },
    ]);
    await page.locator(".trace-table tbody tr").first().waitFor();
    await page.goBack();

    // The map: the shop's services and its database, an edge per call.
    await page.getByRole("link", { name: "Service map" }).click();
    await page.waitForURL(`**${base}/services/map?**`);
    await page.getByRole("heading", { name: "Service map", level: 1 }).waitFor();
    const edgeLink = page.getByRole("link", { name: /^api-gateway calls orders-service:/ });
    await reloadUntil(page, "a.svcmap-edge-link");
    await edgeLink.waitFor();
    for (const name of [
      /^api-gateway, service/,
      /^orders-service, service/,
      /^postgresql.*, database/,
    ])
      expect(await page.getByRole("link", { name }).count(), String(name)).toBe(1);
    await dash.screenshot(page, "services-map");

    await edgeLink.click();
    await page.waitForURL((url) => url.pathname === `${base}/traces`);
    const filters = JSON.parse(search(page).get("filters") ?? "[]") as { field: string }[];
    expect(filters[0]).toEqual({ field: "service_name", op: "=", value: "orders-service" });
    // The list shows only traces through orders-service.
    await page.locator(".trace-table tbody tr").first().waitFor();
    await until(
      page,
      `[...document.querySelectorAll(".trace-table tbody tr")].every((tr) => tr.textContent.includes("orders-service"))`,
    );
    expect(console.errors).toEqual([]);
  }, 120_000);

  it("draws services sent by hand, keyboard first, whatever their names", async () => {
    const key = await addKey(dash.service, dash.projectId, { name: "map", role: "ingest" });
    const callees = ["map", "a/b 100%", ...Array.from({ length: 8 }, (_, i) => `svc-${i}`)];
    const now = Date.now() - 120_000;
    const front: SpanSpec[] = [];
    const bodies: ReturnType<typeof tracesBody>[] = [];
    callees.forEach((callee, i) => {
      const traceId = hexId(0x5e0000 + i, 32);
      const root = hexId(0x100 + i, 16);
      const call = hexId(0x200 + i, 16);
      front.push(
        { traceId, spanId: root, name: "GET /", kind: 2, startMs: now + i, durationMs: 50 },
        {
          traceId,
          spanId: call,
          parentSpanId: root,
          name: `call ${i}`,
          kind: 3,
          startMs: now + i + 1,
          durationMs: 40,
          error: i === 1,
        },
      );
      bodies.push(
        tracesBody(callee, [
          {
            traceId,
            spanId: hexId(0x300 + i, 16),
            parentSpanId: call,
            name: "handle",
            kind: 2,
            startMs: now + i + 2,
            durationMs: 30,
            error: i === 1,
          },
        ]),
      );
    });
    await sendOtlp(dash.service, key, "traces", tracesBody("front-door", front));
    for (const body of bodies) await sendOtlp(dash.service, key, "traces", body);

    const { page, console } = await dash.newPage();
    await dash.signIn(page);
    await page.goto(`${base}/services/map?range=15m`);
    await page.getByRole("heading", { name: "Service map", level: 1 }).waitFor();
    await reloadUntil(page, 'a.svcmap-edge-link[aria-label^="front-door calls svc-7"]');
    // No two nodes overlap on screen.
    const boxes = [];
    for (const node of await page.locator("a.svcmap-node").all()) {
      const box = await node.boundingBox();
      if (box)
        boxes.push({
          left: box.x,
          right: box.x + box.width,
          top: box.y,
          bottom: box.y + box.height,
        });
    }
    expect(boxes.length).toBeGreaterThanOrEqual(11);
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(
          a.right <= b.left + 1 ||
            b.right <= a.left + 1 ||
            a.bottom <= b.top + 1 ||
            b.bottom <= a.top + 1,
        ).toBe(true);
    // The erring callee reads as such, in words too.
    expect(
      await page
        .getByRole("link", { name: /^a\/b 100%, service: .* 100 % err/ })
        .getAttribute("class"),
    ).toContain("svc-tone-bad");

    // Tab reaches the nodes, then the edges; Enter opens the focused one.
    await page.getByRole("button", { name: "Fit" }).focus();
    let reached = "";
    for (let presses = 0; presses < 40 && !reached.startsWith("map, service"); presses++) {
      await page.keyboard.press("Tab");
      reached = (await page.evaluate(
        `document.activeElement?.getAttribute("aria-label") ?? ""`,
      )) as string;
    }
    expect(reached).toMatch(/^map, service/);
    // Arrow keys move the drawing; Enter opens the service named "map", not the map.
    const before = await page.locator(".svcmap-svg > g").getAttribute("transform");
    await page.keyboard.press("ArrowLeft");
    expect(await page.locator(".svcmap-svg > g").getAttribute("transform")).not.toBe(before);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "map", exact: true, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`${base}/services/%6Dap`);
    await page.locator(".svc-operations tbody tr").first().waitFor();

    // A name with a slash and a percent sign has its page.
    await page.goto(`${base}/services/map?range=15m`);
    await page.getByRole("link", { name: /^a\/b 100%, service/ }).click();
    await page.getByRole("heading", { name: "a/b 100%", exact: true, level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Called by" }).waitFor();
    expect(await page.locator("section", { hasText: "Called by" }).textContent()).toContain(
      "front-door",
    );

    // An edge's traces are that call's only: one trace went from front-door to svc-7.
    await page.goto(`${base}/services/map?range=15m`);
    // Its label (the middle of a curved edge's box may be blank).
    await page
      .getByRole("link", { name: /^front-door calls svc-7:/ })
      .locator("text")
      .click();
    await page.waitForURL((url) => url.pathname === `${base}/traces`);
    expect(search(page).get("service")).toBe("front-door");
    await page.locator(".trace-table tbody tr").first().waitFor();
    await until(
      page,
      `!document.querySelector(".trace-table.refreshing") &&
       document.querySelectorAll(".trace-table tbody tr").length === 1`,
    );
    expect(await page.locator(".trace-table tbody tr").textContent()).toContain("svc-7");
    expect(console.errors).toEqual([]);
  }, 120_000);
});
