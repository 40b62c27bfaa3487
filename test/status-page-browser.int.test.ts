import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable, SCREENSHOTS } from "./helpers/browser.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/** The public status page in a real browser, with JavaScript off as a visitor might have it. */
describe.skipIf(!chromiumAvailable)("public status page in Chromium", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let browser: Browser;
  let target: Server;
  let status = 200;

  beforeAll(async () => {
    target = createServer((_req, res) => {
      res.writeHead(status);
      res.end("ok");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    let orgId: string;
    let projectId: string;
    ({ service, owner, orgId, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    }));
    const monitor = async (name: string) =>
      (
        (await (
          await owner.post(`/api/projects/${projectId}/monitors`, {
            name,
            type: "api",
            frequency: "1m",
            steps: [{ url }],
          })
        ).json()) as { id: string }
      ).id;
    const api = await monitor("API");
    const web = await monitor("Web");
    const base = `/api/orgs/${orgId}/status-pages`;
    const page = (await (
      await owner.post(base, {
        slug: "acme",
        title: "Acme",
        description: "Live status of Acme's services",
        links: [{ label: "Support", url: "https://acme.example/support" }],
      })
    ).json()) as { page: { id: string } };
    const pageBase = `${base}/${page.page.id}`;
    const group = (await (await owner.post(`${pageBase}/groups`, { name: "Core" })).json()) as {
      id: string;
    };
    await owner.post(`${pageBase}/components`, {
      name: "Public API",
      description: "REST and gRPC",
      groupId: group.id,
      monitorIds: [api],
    });
    await owner.post(`${pageBase}/components`, {
      name: "Checkout",
      groupId: group.id,
      monitorIds: [api, web],
    });
    await owner.post(`${pageBase}/components`, {
      name: "Website",
      monitorIds: [web, api],
      publishIncidents: false,
    });
    const run = (id: string) => owner.post(`/api/projects/${projectId}/monitors/${id}/run`);
    await run(web);
    status = 503;
    await run(api);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await new Promise<void>((resolve) => target?.close(() => resolve()));
    dir.remove();
  });

  it("renders every component with 90 bars, the incident and the state, without script", async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    const response = await page.goto(`${service.url}/status/acme`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toContain("Acme");
    const components = page.locator(".component");
    expect(await components.count()).toBe(3);
    for (let i = 0; i < 3; i++)
      expect(await components.nth(i).locator(".history > i").count()).toBe(90);
    const body = (await page.locator("body").textContent()) ?? "";
    expect(body).toContain("Public API");
    expect(body).toContain("Public API, Checkout: service disruption");
    // Public API's only monitor fails: down. One of Checkout's two fails, and the outage's own
    // incident (high) is published on it: down too, as the incident says. Website does not
    // publish its sources' incidents: degraded through its sources alone (one of two fails).
    expect(await components.nth(0).getAttribute("data-status")).toBe("down");
    expect(await components.nth(1).getAttribute("data-status")).toBe("down");
    expect(await components.nth(2).getAttribute("data-status")).toBe("degraded");
    // One state, one name: the banner, the incident and the components say the same.
    expect(await page.locator("#overall").textContent()).toBe("Outage");
    const incident = page.locator("article.incident").first();
    expect(await incident.locator(".pill").first().textContent()).toBe("Outage");
    expect(await incident.locator(".meta").last().textContent()).toBe(
      "Affected: Public API, Checkout",
    );
    for (const landmark of ["header", "main", "footer"])
      expect(await page.locator(landmark).count(), landmark).toBeGreaterThan(0);
    // Today's bar of the failing component explains itself on hover.
    const apiToday = components.first().locator(".history > i").last();
    await apiToday.hover();
    const tip = apiToday.locator("b");
    expect(await tip.isVisible()).toBe(true);
    expect(await tip.textContent()).toMatch(/^\w{3}, \w{3} \d+: Outage, /);
    expect((await tip.boundingBox())?.width ?? 0).toBeGreaterThan(100);
    // A plain day (no data before the components existed) explains itself too: the stylesheet
    // writes its tooltip from the bar's position.
    const firstDay = components.first().locator(".history > i").first();
    await firstDay.hover();
    const tooltip =
      "getComputedStyle(document.querySelector('.component .history > i'), '::after')";
    expect(await page.evaluate(`${tooltip}.content`)).toMatch(/^"\w{3}, \w{3} \d+: No data"$/);
    // Keyboard users reach the notable days (today's outage) and get the same details.
    let focusedBar = false;
    for (let i = 0; i < 40 && !focusedBar; i++) {
      await page.keyboard.press("Tab");
      focusedBar = Boolean(
        await page.evaluate(
          "document.activeElement?.parentElement?.classList.contains('history') ?? false",
        ),
      );
    }
    expect(focusedBar).toBe(true);
    expect(await page.locator(".history > i:focus > b").isVisible()).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, "status-page-desktop.png"), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a phone screen without sideways scrolling", async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 375, height: 800 },
    });
    const page = await context.newPage();
    await page.goto(`${service.url}/status/acme`);
    const overflow = await page.evaluate(
      "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    );
    expect(Number(overflow)).toBeLessThanOrEqual(0);
    expect(await page.locator(".component").first().locator(".history > i").count()).toBe(90);
    await page.screenshot({ path: join(SCREENSHOTS, "status-page-mobile.png"), fullPage: true });
    await context.close();
  });
});
