import { describe, expect, it } from "vitest";
import { renderAckPage } from "./ack-page.js";

const incident = {
  title: `<script>alert("x")</script> & "quotes"`,
  severity: "high" as const,
  startedAt: "2026-11-29T10:00:00.000Z",
  projectName: "<b>Shop</b>",
  dashboardPath: "/projects/prj_1/incidents/inc_1",
};

describe("the acknowledge link's page", () => {
  it("escapes what users named and posts to the link's own path", () => {
    const html = renderAckPage({ state: "open", incident }, "/ack/abc");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>Shop</b>");
    expect(html).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;",
    );
    expect(html).toContain(
      '<form method="post" action="/ack/abc"><button type="submit">Acknowledge</button></form>',
    );
    expect(html).toContain("2026-11-29 10:00:00 UTC");
  });

  it("says the same for every unusable link, naming no incident", () => {
    const html = renderAckPage({ state: "unavailable" }, "/ack/abc");
    expect(html).toContain("This link cannot be used");
    expect(html).not.toContain("<form");
    expect(html).not.toContain("/ack/abc");
  });

  it("names who acknowledged, and says so when it was this link", () => {
    const by = { kind: "link" as const, id: "chn_1", label: "Ops (email)" };
    const at = "2026-11-29T10:05:00.000Z";
    const other = renderAckPage(
      { state: "acknowledged", incident, acknowledgedAt: at, by, byThisLink: false },
      "/ack/abc",
    );
    expect(other).toContain("Already acknowledged");
    expect(other).toContain("by a link sent by Ops (email) at 2026-11-29 10:05:00 UTC");
    const mine = renderAckPage(
      { state: "acknowledged", incident, acknowledgedAt: at, by, byThisLink: true },
      "/ack/abc",
    );
    expect(mine).toContain("<h1>Acknowledged</h1>");
    expect(mine).not.toContain("<form");
  });
});
