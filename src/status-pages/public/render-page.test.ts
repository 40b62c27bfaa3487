import { describe, expect, it } from "vitest";
import { StatusPageData } from "../../contracts/status-page-data.js";
import { HISTORY_DAYS, type PageState } from "../../contracts/status-pages.js";
import {
  buildRichStatusPageData,
  buildStatusPageData,
  FIXTURE_NOW,
} from "./fixture.test-helper.js";
import { formatShortUtcDay } from "./html.js";
import { renderStatusPage } from "./render-page.js";

const options = { basePath: "/status/acme", now: FIXTURE_NOW };

/** The HTML of each `.component` block, in document order. */
const componentBlocks = (html: string): string[] => html.split('<div class="component"').slice(1);

const count = (html: string, needle: string): number => html.split(needle).length - 1;

/** The bars of a component's strip, in order: whether each takes a keyboard stop, and its words. */
const stripBars = (block: string): { focusable: boolean; text: string | undefined }[] => {
  const strip = /<div class="history" [^>]*>(.*?)<\/div>/.exec(block)?.[1] ?? "";
  return [...strip.matchAll(/<i([^>]*)>(?:<b>([^<]*)<\/b>)?<\/i>/g)].map((m) => ({
    focusable: (m[1] ?? "").includes('tabindex="0"'),
    text: m[2],
  }));
};

describe("fixtures", () => {
  it("are valid StatusPageData with HISTORY_DAYS days per component", () => {
    for (const data of [buildStatusPageData({ components: 4 }), buildRichStatusPageData()]) {
      expect(StatusPageData.parse(data)).toEqual(data);
      for (const c of data.services) expect(c.history).toHaveLength(HISTORY_DAYS);
    }
  });
});

describe("renderStatusPage: document", () => {
  const html = renderStatusPage(buildRichStatusPageData(), options);

  it("is a complete HTML5 document with viewport, title and alternate links", () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<title>Acme Cloud — Outage<\/title>/);
    expect(html).toContain('type="application/atom+xml"');
    expect(html).toContain('href="/status/acme/feed.atom"');
    expect(html).toContain('href="/status/acme/feed.rss"');
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
  });

  it("has no script and no external resources but links", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/rel="stylesheet"/);
    expect(count(html, "<style>")).toBe(1);
    expect(html).not.toContain("<img");
    expect(html).toContain("default-src 'none'");
  });

  it("has landmarks and headings in order", () => {
    for (const tag of ["<header", "<main", "<footer", '<nav aria-label="Links">'])
      expect(html).toContain(tag);
    const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
    expect(levels[0]).toBe(1);
    expect(count(html, "<h1")).toBe(1);
    for (let i = 1; i < levels.length; i++) {
      const prev = levels[i - 1] ?? 1;
      expect(levels[i] ?? 1).toBeLessThanOrEqual(prev + 1);
    }
  });

  it("shows times in the page's zone and says history days are UTC", () => {
    expect(html).toContain("Mar 15, 2025, 11:00 AM CET");
    expect(html).toContain("Times are shown in Europe/Berlin (CET)");
    expect(html).toContain("one UTC day");
  });

  it("links the JSON, the feeds and the badge in the footer", () => {
    const footer = html.slice(html.indexOf("<footer"));
    expect(footer).toContain("Powered by Vigil");
    for (const href of ["/status/acme.json", "/status/acme/feed.atom", "/status/acme/feed.rss"])
      expect(footer).toContain(`href="${href}"`);
    expect(footer).toContain('href="/status/acme/badge.svg"');
  });

  it("ignores a trailing slash on the base path", () => {
    const other = renderStatusPage(buildStatusPageData(), {
      ...options,
      basePath: "/status/acme/",
    });
    expect(other).toContain('href="/status/acme.json"');
    expect(other).not.toContain("/status/acme/.json");
  });
});

describe("renderStatusPage: components and history", () => {
  it("draws exactly history.length bars per component, each on its day, in date order", () => {
    const data = buildRichStatusPageData();
    const html = renderStatusPage(data, options);
    const blocks = componentBlocks(html);
    expect(blocks).toHaveLength(data.services.length);
    blocks.forEach((block, i) => {
      const component = data.services[i];
      const bars = stripBars(block);
      expect(bars).toHaveLength(component?.history.length ?? -1);
      expect(bars).toHaveLength(HISTORY_DAYS);
      bars.forEach((bar, k) => {
        const date = formatShortUtcDay(component?.history[k]?.date ?? "");
        // A described day says its date; a plain one takes it from its position's rule.
        if (bar.text === undefined)
          expect(html).toContain(`.history>:nth-child(${k + 1}){--d:"${date}"}`);
        else expect(bar.text.startsWith(`${date}: `), bar.text).toBe(true);
      });
    });
  });

  it("marks each bar with its day's status and describes it in text", () => {
    const html = renderStatusPage(buildRichStatusPageData(), options);
    for (const status of ["degraded", "down", "no_data"])
      expect(html).toMatch(new RegExp(`<i class="${status}[ "]`));
    // An operational day: plain (drawn by the stylesheet), or described when it has more to tell.
    expect(html).toContain("<i></i>");
    expect(html).toMatch(/<i class="maint" tabindex="0"><b>[^<]+: Operational, uptime 100%, /);
    const today = /<i class="down" tabindex="0"><b>(Sat, Mar 15: [^<]+)<\/b><\/i>/.exec(html);
    expect(today?.[1]).toBe(
      "Sat, Mar 15: Outage, uptime 95.83%, down 1 h, 1 incident: Elevated error rates on the API",
    );
    // A day with no data says so (the stylesheet's words for a plain day), and takes no keyboard stop.
    expect(html).toContain('<i class="no_data"></i>');
    expect(html).toContain('.history>.no_data:empty:hover::after{content:var(--d) ": No data"}');
    expect(html).toContain(
      '.history>i:empty:hover::after{content:var(--d) ": Operational, uptime 100%"}',
    );
  });

  it("gives a keyboard stop only to days with something to tell", () => {
    const data = buildRichStatusPageData();
    const blocks = componentBlocks(renderStatusPage(data, options));
    let plainDays = 0;
    let eventfulDays = 0;
    data.services.forEach((component, i) => {
      const bars = stripBars(blocks[i] ?? "");
      component.history.forEach((day, k) => {
        const plain =
          (day.status === "operational" || day.status === "no_data") &&
          (day.uptime === null || day.uptime === 100) &&
          day.downMs === 0 &&
          day.degradedMs === 0 &&
          !day.maintenance &&
          day.incidents.length === 0;
        expect(bars[k]?.focusable, `${component.name} ${day.date}`).toBe(!plain);
        if (plain) plainDays++;
        else eventfulDays++;
      });
    });
    // The fixture has both kinds, so each half of the rule was exercised.
    expect(plainDays).toBeGreaterThan(0);
    expect(eventfulDays).toBeGreaterThan(0);
  });

  it("shows state, uptime and description of each component", () => {
    const html = renderStatusPage(buildRichStatusPageData(), options);
    const [api] = componentBlocks(html);
    expect(api).toContain("<h4>API</h4>");
    expect(api).toContain("REST and GraphQL endpoints");
    expect(api).toContain('<span class="pill down">');
    expect(api).toContain(">Outage</span>");
    expect(api).toContain("99.41% uptime");
    expect(html).toContain("Under maintenance");
    expect(html).toContain("No data yet");
  });

  it("places groups at their first component, in display order", () => {
    const data = buildRichStatusPageData();
    const reordered = StatusPageData.parse({
      ...data,
      services: [data.services[3], data.services[0], data.services[4], data.services[1]],
    });
    const html = renderStatusPage(reordered, options);
    const names = componentBlocks(html).map((b) => /<h[34]>([^<]+)</.exec(b)?.[1]);
    expect(names).toEqual(["Email delivery", "API", "Dashboard", "Webhooks"]);
    expect(html.indexOf("Core platform")).toBeGreaterThan(html.indexOf("Email delivery"));
    expect(html.indexOf("Core platform")).toBeLessThan(html.indexOf("<h3>Webhooks"));
    expect(html).not.toContain("<h3>Data</h3>");
  });
});

describe("renderStatusPage: banner", () => {
  const withStatus = (status: PageState, componentStatuses: ("operational" | "down")[]) => {
    const data = buildStatusPageData({ components: componentStatuses.length });
    data.page.status = status;
    data.services.forEach((c, i) => {
      c.status = componentStatuses[i] ?? "operational";
    });
    return renderStatusPage(data, options);
  };

  it.each([
    ["operational", ["operational"], "All systems operational"],
    ["degraded", ["operational"], "Degraded performance"],
    // The state's own words, as its pills and incidents say them: one name for one state.
    ["down", ["down", "operational"], "Outage"],
    ["down", ["down", "down"], "Outage"],
  ] as const)("%s page with %j reads %s", (status, states, text) => {
    const html = withStatus(status, [...states]);
    expect(html).toContain(`<section class="banner ${status}"`);
    expect(html).toContain(`<h2 id="overall">${text}</h2>`);
  });
});

describe("renderStatusPage: incidents and maintenance", () => {
  const html = renderStatusPage(buildRichStatusPageData(), options);

  it("lists active incidents with updates, newest first, and anchors every incident", () => {
    const active = html.slice(
      html.indexOf("Active incidents"),
      html.indexOf("Scheduled maintenance"),
    );
    expect(active).toContain('id="incident-inc_active"');
    expect(active).toContain("Affected: API");
    expect(active.indexOf("Identified")).toBeLessThan(active.indexOf("Investigating"));
    expect(active).toContain("Updates, newest first");
    expect(active).toContain("A bad deploy was identified.\nRolling back.");
    const past = html.slice(html.indexOf("Past incidents"));
    expect(past).toContain('id="incident-inc_resolved"');
    expect(past).not.toContain("inc_active");
    expect(past).toContain("lasted 2 h");
  });

  it("shows running and upcoming maintenance, not completed or ended windows", () => {
    const data = buildRichStatusPageData();
    const [running, upcoming] = data.maintenance;
    if (running === undefined || upcoming === undefined) throw new Error("fixture changed");
    data.maintenance.push(
      { ...upcoming, id: "mnt_done", title: "Done window", phase: "completed" },
      { ...upcoming, id: "mnt_over", title: "Over window", endsAt: "2025-03-01T00:00:00Z" },
    );
    const out = renderStatusPage(data, options);
    const section = out.slice(out.indexOf("Scheduled maintenance"), out.indexOf("Components</h2>"));
    expect(section).toContain("Database upgrade");
    expect(section).toContain("In progress");
    expect(section).toContain("Network maintenance");
    expect(section).toContain(">Scheduled</span>");
    expect(section).toContain("Mar 15, 2025, 12:00 PM</time> – <time");
    expect(section).toContain("Affected: API, Dashboard");
    expect(section).not.toContain("Done window");
    expect(section).not.toContain("Over window");
  });

  it("says so when there were no incidents and leaves out empty sections", () => {
    const quiet = renderStatusPage(buildStatusPageData(), options);
    expect(quiet).toContain("No incidents in the last 90 days.");
    expect(quiet).not.toContain("Active incidents");
    expect(quiet).not.toContain("Scheduled maintenance");
  });
});

describe("renderStatusPage: escaping and URLs", () => {
  const hostile = () => {
    const data = buildRichStatusPageData();
    data.page.title = `Acme "Cloud" <b>`;
    data.page.description = "<iframe src=x>";
    data.page.logoUrl = "javascript:alert(1)";
    data.page.links = [
      { label: "Evil", url: "javascript:alert(1)" },
      { label: "Data", url: "data:text/html,<script>alert(1)</script>" },
      { label: `Docs <i>"`, url: 'https://acme.example/docs?a=1&b="2"' },
    ];
    const api = data.services[0];
    if (api !== undefined) api.name = "<script>alert('name')</script>";
    const incident = data.activeIncidents[0];
    const update = incident?.updates[0];
    if (update !== undefined)
      update.message = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    if (incident !== undefined) {
      incident.title = "</h3><script>t</script>";
      data.incidents[0] = incident; // parse() copied it; keep both lists in step
    }
    return data;
  };

  it("escapes every payload string", () => {
    const html = renderStatusPage(hostile(), options);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<iframe");
    expect(html).toContain("&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;");
    expect(html).toContain(
      "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;",
    );
    expect(html).toContain("<h1>Acme &quot;Cloud&quot; &lt;b&gt;</h1>");
    expect(html).toContain("&lt;/h3&gt;&lt;script&gt;t&lt;/script&gt;");
  });

  it("drops non-http(s) links and logo, and escapes URLs in attributes", () => {
    const html = renderStatusPage(hostile(), options);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toContain("data:text/html");
    expect(html).not.toContain("<img");
    expect(html).not.toContain(">Evil<");
    expect(html).toContain(
      '<a href="https://acme.example/docs?a=1&amp;b=%222%22" rel="noopener">Docs &lt;i&gt;&quot;</a>',
    );
  });

  it("shows an http(s) logo with the title as alt text", () => {
    const data = buildStatusPageData();
    data.page.logoUrl = 'https://cdn.acme.example/logo.png?x="1"';
    data.page.title = "Acme & Co";
    expect(renderStatusPage(data, options)).toContain(
      '<img src="https://cdn.acme.example/logo.png?x=%221%22" alt="Acme &amp; Co" height="40">',
    );
  });

  it("renders a page in a zone the runtime does not know, in UTC", () => {
    const data = buildRichStatusPageData();
    data.page.timezone = "Nowhere/Special";
    const html = renderStatusPage(data, options);
    expect(html).toContain("11:00 AM UTC");
  });
});

describe("renderStatusPage: the Subscribe form", () => {
  it("is a plain form POST to the page's subscribe path, with a checkbox per component, escaped", () => {
    const data = buildStatusPageData({ components: 2 });
    const first = data.services[0];
    if (first) first.name = '<b>"API"</b>';
    const html = renderStatusPage(data, { ...options, subscribe: true });
    expect(html).toContain('<form method="post" action="/status/acme/subscribe">');
    expect(html).toContain('<input id="subscribe-email" name="email" type="email" required');
    expect(count(html, 'type="checkbox" name="componentIds"')).toBe(2);
    expect(html).toContain("&lt;b&gt;&quot;API&quot;&lt;/b&gt;");
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("form-action 'self'");
  });

  it("is left out when the server cannot send email", () => {
    const html = renderStatusPage(buildStatusPageData(), options);
    expect(html).not.toContain("<form");
  });
});
