import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./helpers/browser.js";
import { type DashboardHarness, startDashboard } from "./helpers/dashboard.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/**
 * The attribute catalog's comboboxes (web/src/components/field-suggest.tsx) in Chromium, where
 * the traces explorer's filter form mounts them: suggestions from what the demo data sent,
 * chosen by keyboard or by click, any text kept, and the ARIA combobox pattern.
 */
describe.skipIf(!chromiumAvailable)("field and value suggestions in the dashboard", () => {
  const dir = makeTempDir();
  let dash: DashboardHarness;

  beforeAll(async () => {
    dash = await startDashboard(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    });
    await dash.seedDemo();
  }, 120_000);
  afterAll(async () => {
    await dash?.close();
    dir.remove();
  });

  /** The suggestions a combobox shows, once they include `text`. */
  const optionsOf = async (box: Locator, text: string) => {
    const list = box.page().locator(`#${await box.getAttribute("aria-controls")}`);
    await list
      .getByRole("option", { name: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) })
      .first()
      .waitFor();
    return list.getByRole("option");
  };

  it("suggests fields and values by keyboard and click, and keeps free text", async () => {
    const { page, console } = await dash.newPage({ width: 1280, height: 900 });
    await dash.signIn(page);
    await page.goto(`/projects/${dash.projectId}/traces?range=24h`);
    await page.getByRole("button", { name: "+ Filter" }).click();
    const form = page.getByRole("form", { name: "Add a span filter" });
    const field = form.getByRole("combobox", { name: "Field" });
    const value = form.getByRole("combobox", { name: "Value" });

    // Typing narrows to the catalog's fields containing the text, most frequent first.
    await field.fill("http.ro");
    const fields = await optionsOf(field, "attributes.http.route");
    expect(await field.getAttribute("aria-expanded")).toBe("true");
    // The list may still be the one of the first letters typed until the debounced ask answers.
    await expect
      .poll(async () =>
        (await fields.locator(".suggest-value").allTextContents()).every((n) =>
          n.toLowerCase().includes("http.ro"),
        ),
      )
      .toBe(true);
    const names = await fields.locator(".suggest-value").allTextContents();
    expect(names[0]).toBe("attributes.http.route");
    // ↓ makes the first one active (aria-activedescendant), Enter takes it and closes the list.
    await field.press("ArrowDown");
    const active = await field.getAttribute("aria-activedescendant");
    expect(await page.locator(`#${active}`).getAttribute("aria-selected")).toBe("true");
    await field.press("Enter");
    expect(await field.inputValue()).toBe("attributes.http.route");
    expect(await field.getAttribute("aria-expanded")).toBe("false");

    // The field's values, with counts; a click takes one.
    await value.click();
    const routes = await optionsOf(value, "/api/");
    const first = (await routes.first().locator(".suggest-value").textContent()) ?? "";
    expect(await routes.count()).toBeGreaterThan(1);
    await routes.first().click();
    expect(await value.inputValue()).toBe(first);

    // Escape closes the list without closing the form; text no suggestion holds stays.
    await value.fill("/not/a/route/seen");
    await value.press("Escape");
    expect(await value.getAttribute("aria-expanded")).toBe("false");
    expect(await form.isVisible()).toBe(true);
    await value.press("Enter");
    await page.waitForURL((url) => url.searchParams.has("filters"));
    expect(JSON.parse(new URL(page.url()).searchParams.get("filters") ?? "[]")).toEqual([
      { field: "attributes.http.route", op: "=", value: "/not/a/route/seen" },
    ]);
    expect(console.errors).toEqual([]);
  });
});
