import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from "./helpers/browser.js";
import { bundleForBrowser, webSource } from "./helpers/web-bundle.js";

/** What the rendered Markdown leaves in a real document: its HTML and what could run or load. */
interface Rendered {
  html: string;
  text: string;
  dangerous: string[];
  handlers: string[];
  hrefs: string[];
  links: { href: string; rel: string; target: string }[];
}

/** Runs in the page (the root type check has no DOM): renders, then lists what is left. */
const IN_PAGE = `(source, kind) => {
  const fragment =
    kind === "html" ? VigilTest.sanitizeHtml(source) : VigilTest.renderMarkdown(source);
  const root = document.createElement("div");
  root.append(fragment);
  const all = [...root.querySelectorAll("*")];
  return {
    html: root.innerHTML,
    text: root.textContent ?? "",
    dangerous: all
      .map((e) => e.tagName.toLowerCase())
      .filter((t) => ["script", "style", "iframe", "img", "object", "embed", "svg", "form"].includes(t)),
    handlers: all.flatMap((e) =>
      [...e.attributes].map((a) => a.name).filter((n) => /^on/i.test(n) || n === "style"),
    ),
    hrefs: all.flatMap((e) => [e.getAttribute("href"), e.getAttribute("src")]).filter((v) => v !== null),
    links: [...root.querySelectorAll("a")].map((a) => ({
      href: a.getAttribute("href") ?? "",
      rel: a.getAttribute("rel") ?? "",
      target: a.getAttribute("target") ?? "",
    })),
  };
}`;

/**
 * The text panel's sanitizer in Chromium (DOMPurify needs a real DOM): hostile Markdown and raw
 * HTML come out with nothing that runs, loads or navigates to a script.
 */
describe.skipIf(!chromiumAvailable)("a text panel's Markdown", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // The text panel's renderer alone (marked and DOMPurify inside), as the app ships it.
    const { js } = await bundleForBrowser(
      `export * from ${webSource("screens/dashboards/panels/markdown.ts")};`,
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ content: js });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function render(input: string, as: "markdown" | "html" = "markdown"): Promise<Rendered> {
    return (await page.evaluate(
      `(${IN_PAGE})(${JSON.stringify(input)}, ${JSON.stringify(as)})`,
    )) as Rendered;
  }

  it("renders Markdown: headings, emphasis, lists, code, tables and safe links", async () => {
    const out = await render(
      "# Checkout\n\n**Bold** and _em_, `code`.\n\n- one\n- two\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n[docs](https://example.com/docs) [here](/projects/p/traces) [mail](mailto:ops@example.com)",
    );
    expect(out.html).toContain("<h1>Checkout</h1>");
    expect(out.html).toContain("<strong>Bold</strong>");
    expect(out.html).toContain("<li>one</li>");
    expect(out.html).toContain("<table>");
    expect(out.html).toContain('<td align="right">2</td>');
    expect(out.links).toEqual([
      { href: "https://example.com/docs", rel: "noopener noreferrer", target: "_blank" },
      { href: "/projects/p/traces", rel: "noopener noreferrer", target: "" },
      { href: "mailto:ops@example.com", rel: "noopener noreferrer", target: "" },
    ]);
  });

  it("removes <script>, <iframe>, <style> and event handlers from raw HTML in the Markdown", async () => {
    const out = await render(
      'Hi <script>alert(1)</script>\n\n<iframe src="https://evil.example"></iframe>\n\n<img src=x onerror="alert(2)">\n\n<style>body{display:none}</style>\n\n<div onclick="alert(3)" style="color:red">x</div>\n\n<svg onload="alert(4)"></svg>',
    );
    expect(out.dangerous).toEqual([]);
    expect(out.handlers).toEqual([]);
    // Raw HTML shows as text, inert.
    expect(out.text).toContain("<script>alert(1)</script>");
  });

  it("refuses the same through the HTML layer alone (defence in depth)", async () => {
    const out = await render(
      '<p>ok</p><script>alert(1)</script><img src="x" onerror="alert(2)"><iframe srcdoc="<script>alert(3)</script>"></iframe><a href="javascript:alert(4)" onmouseover="alert(5)">x</a><math><mi xlink:href="javascript:alert(6)">m</mi></math><form action="https://evil.example"><input name="q"></form>',
      "html",
    );
    expect(out.dangerous).toEqual([]);
    expect(out.handlers).toEqual([]);
    expect(out.hrefs).toEqual([]);
    expect(out.html).toContain("<p>ok</p>");
  });

  it("drops javascript:, data: and vbscript: links, however they are spelled", async () => {
    const out = await render(
      "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](java%0ascript:alert(1)) <javascript:alert(1)> [d](data:text/html;base64,PHNjcmlwdD4=) [e](vbscript:msgbox(1)) [f](&#106;avascript:alert(1))",
    );
    // What a click would open, as the browser resolves it: a mangled scheme is only a path.
    const opened = out.hrefs.map((h) => new URL(h, "https://vigil.example/p/").protocol);
    expect(opened.length).toBeGreaterThan(0);
    for (const protocol of opened) expect(["https:", "http:", "mailto:"]).toContain(protocol);
  });

  it("writes images as links to them, so nothing loads, and only with a safe address", async () => {
    const out = await render(
      "![chart](https://example.com/c.png) ![x](javascript:alert(1)) ![y](data:image/png;base64,AAAA)",
    );
    expect(out.dangerous).toEqual([]);
    expect(out.links[0]).toEqual({
      href: "https://example.com/c.png",
      rel: "noopener noreferrer",
      target: "_blank",
    });
    expect(out.hrefs).toEqual(["https://example.com/c.png"]);
    expect(out.text).toContain("chart (image)");
  });
});
