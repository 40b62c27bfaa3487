import { describe, expect, it } from "vitest";
import { defaultLinkFor, linkQuery } from "../web/src/screens/dashboards/panels/links.js";

const WINDOW = { from: "2026-03-01T10:00:00.000Z", to: "2026-03-01T11:00:00.000Z" };
const linkFor = defaultLinkFor("prj 1", WINDOW);
/** `${name}` as a link's params write it. */
const slot = (name: string) => `\${${name}}`;
const query = (href: string | null) => new URLSearchParams(href?.split("?")[1] ?? "");

describe("where a panel's data links", () => {
  it("fills a link's placeholders URL-encoded, so a value adds nothing but its own text", () => {
    expect(
      linkQuery(`service=${slot("service_name")}&status=error`, { service_name: "a b&c=d" }),
    ).toBe("service=a+b%26c%3Dd&status=error");
    expect(linkQuery(`?q=${slot("missing")}`, {})).toBe("q=");
    const hostile = linkQuery(`service=${slot("s")}`, { s: "x#frag/../../admin?range=1d" });
    expect(new URLSearchParams(hostile).get("service")).toBe("x#frag/../../admin?range=1d");
    expect([...new URLSearchParams(hostile).keys()]).toEqual(["service"]);
  });

  it("opens a trace (with its span), a log around its time, or a trace's logs", () => {
    expect(linkFor({ kind: "trace", traceId: "abc" })).toBe("/projects/prj%201/traces/abc");
    expect(linkFor({ kind: "trace", traceId: "abc", spanId: "s1" })).toBe(
      "/projects/prj%201/traces/abc?span=s1",
    );
    const log = linkFor({ kind: "log", logId: "L1", time: "2026-03-01T10:30:00.000Z" });
    expect(log?.startsWith("/projects/prj%201/logs?")).toBe(true);
    expect(query(log).get("log")).toBe("L1");
    expect(query(log).get("from")).toBe("2026-03-01T10:15:00.000Z");
    expect(query(log).get("to")).toBe("2026-03-01T10:45:00.000Z");
    const traceLogs = linkFor({ kind: "log", traceId: "abc", time: "2026-03-01T10:30:00.000Z" });
    expect(query(traceLogs).get("traceId")).toBe("abc");
    expect(linkFor({ kind: "log" })).toBeNull();
  });

  it("takes a panel link to the traces or logs screen over the panel's window", () => {
    const href = linkFor({
      kind: "link",
      link: {
        title: "Errors",
        kind: "traces",
        params: `service=${slot("service_name")}&status=error`,
      },
      values: { service_name: "checkout" },
    });
    expect(href?.split("?")[0]).toBe("/projects/prj%201/traces");
    expect(Object.fromEntries(query(href))).toEqual({
      service: "checkout",
      status: "error",
      from: WINDOW.from,
      to: WINDOW.to,
    });
    const dashboard = linkFor({
      kind: "link",
      link: { title: "Detail", kind: "dashboard", dashboardId: "dsh_1" },
      values: {},
    });
    expect(dashboard?.split("?")[0]).toBe("/projects/prj%201/dashboards/dsh_1");
    expect(
      linkFor({ kind: "link", link: { title: "Nowhere", kind: "dashboard" }, values: {} }),
    ).toBeNull();
  });
});
