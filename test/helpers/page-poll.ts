import type { Page } from "playwright-core";

/**
 * Polls a page expression until it is truthy (the app's CSP forbids the eval that Playwright's
 * waitForFunction uses); throws naming the expression after `ms`.
 */
export async function until(page: Page, expression: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
    await page.waitForTimeout(50);
  }
}
