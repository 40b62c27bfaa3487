import { describe, expect, it } from "vitest";
// xml-js is the XML library `feed` itself uses; sax underneath parses strictly.
import { type Element, xml2js } from "xml-js";
import { renderIncidentFeed } from "./feed.js";
import { buildRichStatusPageData, buildStatusPageData } from "./fixture.test-helper.js";

const pageUrl = "https://status.acme.example/status/acme";
const atom = { format: "atom" as const, pageUrl, feedUrl: `${pageUrl}/feed.atom` };
const rss = { format: "rss" as const, pageUrl, feedUrl: `${pageUrl}/feed.rss` };

const children = (el: Element | undefined, name: string): Element[] =>
  (el?.elements ?? []).filter((e) => e.name === name);
const child = (el: Element | undefined, name: string): Element | undefined => children(el, name)[0];
const text = (el: Element | undefined): string =>
  (el?.elements ?? []).map((e) => String(e.text ?? e.cdata ?? "")).join("");
const parse = (xml: string): Element => xml2js(xml, { compact: false }) as Element;

describe("renderIncidentFeed", () => {
  it("writes a well-formed Atom feed, one entry per incident, newest first", () => {
    const data = buildRichStatusPageData();
    const doc = parse(renderIncidentFeed(data, atom));
    const feed = child(doc, "feed");
    expect(feed?.attributes?.xmlns).toBe("http://www.w3.org/2005/Atom");
    expect(text(child(feed, "title"))).toBe("Acme Cloud: incidents");
    const entries = children(feed, "entry");
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => child(e, "link")?.attributes?.href)).toEqual([
      `${pageUrl}#incident-inc_active`,
      `${pageUrl}#incident-inc_resolved`,
    ]);
    const [first] = entries;
    expect(text(child(first, "title"))).toBe("Elevated error rates on the API");
    expect(text(child(first, "updated"))).toBe(data.activeIncidents[0]?.updates[1]?.at);
    const content = text(child(first, "content"));
    expect(content).toContain("<strong>Identified</strong>");
    expect(content.indexOf("Identified")).toBeLessThan(content.indexOf("Investigating"));
    expect(content).toContain("A bad deploy was identified.<br>Rolling back.");
    expect(content).toContain("Affected: API");
    expect(content).toContain("CET");
    expect(children(feed, "link").map((l) => l.attributes?.rel)).toEqual(["alternate", "self"]);
  });

  it("writes a well-formed RSS 2.0 feed with items", () => {
    const doc = parse(renderIncidentFeed(buildRichStatusPageData(), rss));
    const channel = child(child(doc, "rss"), "channel");
    const items = children(channel, "item");
    expect(items).toHaveLength(2);
    expect(text(child(items[1], "link"))).toBe(`${pageUrl}#incident-inc_resolved`);
    expect(text(child(items[1], "title"))).toBe("Slow dashboard loads");
    expect(text(child(items[1], "description"))).toContain("Resolved");
  });

  it("orders by start time even if the payload does not", () => {
    const data = buildRichStatusPageData();
    data.incidents.reverse();
    const entries = children(child(parse(renderIncidentFeed(data, atom)), "feed"), "entry");
    expect(text(child(entries[0], "id"))).toBe(`${pageUrl}#incident-inc_active`);
  });

  it("escapes hostile text and stays well-formed", () => {
    const data = buildRichStatusPageData();
    const incident = data.incidents[0];
    if (incident === undefined) throw new Error("fixture changed");
    incident.title = "<script>alert(1)</script> ]]> & ]]>";
    const update = incident.updates[0];
    if (update !== undefined) update.message = "<img src=x onerror=alert(1)> ]]> ]]>";
    data.page.title = "Acme <b>&</b>";
    for (const options of [atom, rss]) {
      const xml = renderIncidentFeed(data, options);
      expect(xml).not.toContain("<script");
      expect(xml).not.toContain("<img");
      const doc = parse(xml);
      const root = child(doc, "feed") ?? child(child(doc, "rss"), "channel");
      const entry = child(root, "entry") ?? child(root, "item");
      expect(text(child(entry, "title"))).toBe(
        "&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; ]]&gt;",
      );
      expect(text(child(root, "title"))).toBe("Acme <b>&</b>: incidents");
    }
  });

  it("writes an empty but valid feed for a page without incidents", () => {
    const doc = parse(renderIncidentFeed(buildStatusPageData(), atom));
    expect(children(child(doc, "feed"), "entry")).toHaveLength(0);
  });

  it("requires absolute http(s) URLs", () => {
    const data = buildStatusPageData();
    expect(() => renderIncidentFeed(data, { ...atom, pageUrl: "/status/acme" })).toThrow(TypeError);
    expect(() => renderIncidentFeed(data, { ...atom, feedUrl: "javascript:alert(1)" })).toThrow(
      TypeError,
    );
  });
});
