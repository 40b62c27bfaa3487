// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${name}` is the panel links' own syntax here.
import { describe, expect, it } from "vitest";
import {
  alertHref,
  exploreHref,
  fillTemplate,
  type LinkScope,
  linkParams,
  panelLinkHref,
} from "../web/src/screens/dashboards/panel-links.js";

const scope: LinkScope = {
  projectId: "prj_1",
  selections: { service: ["api", "web"], env: ["prod"] },
  bound: { service: ["api", "web"], env: "prod" },
  range: { kind: "relative", key: "6h" },
};
const query = (href: string) => new URLSearchParams(href.slice(href.indexOf("?") + 1));

describe("where a panel leads", () => {
  it("fills ${name} from the row's columns first, then the variables", () => {
    expect(
      fillTemplate("${service_name}/${env}/${nope}", scope.bound, { service_name: "db" }),
    ).toBe("db/prod/");
    expect(fillTemplate("${service}", scope.bound)).toBe("api,web");
  });

  it("encodes filled values so a value cannot add a parameter", () => {
    const params = linkParams("service=${s}&status=error", {}, { s: "a&level=fatal" });
    expect([...params]).toEqual([
      ["service", "a&level=fatal"],
      ["status", "error"],
    ]);
  });

  it("explores the query with the values its placeholders use and the range", () => {
    const href = exploreHref(scope, "SELECT {service:Array(String)} -- {env}");
    expect(href.startsWith("/projects/prj_1/tql?")).toBe(true);
    const q = query(href);
    expect(q.get("q")).toBe("SELECT {service:Array(String)} -- {env}");
    expect(q.getAll("var-service")).toEqual(["api", "web"]);
    expect(q.has("var-env")).toBe(false);
    expect(q.get("range")).toBe("6h");
  });

  it("carries All as the values it stands for, which only the dashboard knows", () => {
    const all: LinkScope = { ...scope, selections: { service: ["$__all"] } };
    expect(query(exploreHref(all, "SELECT {service:Array(String)}")).getAll("var-service")).toEqual(
      ["api", "web"],
    );
  });

  it("opens a new alert rule on the query, named after the panel", () => {
    const q = query(alertHref(scope, "SELECT {env:String}", " Errors ", "Checkout"));
    expect(q.get("query")).toBe("SELECT {env:String}");
    expect(q.get("name")).toBe("Errors");
    expect(q.get("description")).toContain("Checkout");
    expect(q.get("var-env")).toBe("prod");
    expect(q.has("var-service")).toBe(false);
  });

  it("leads to traces (or one trace), logs, and another dashboard carrying the variables", () => {
    const row = { trace_id: "abc", service_name: "api" };
    expect(
      panelLinkHref(scope, { title: "t", kind: "traces", params: "trace_id=${trace_id}" }, row),
    ).toBe("/projects/prj_1/traces/abc?range=6h");
    expect(
      panelLinkHref(scope, { title: "t", kind: "traces", params: "service=${service_name}" }, row),
    ).toBe("/projects/prj_1/traces?service=api&range=6h");
    expect(panelLinkHref(scope, { title: "l", kind: "logs", params: "q=timeout" })).toBe(
      "/projects/prj_1/logs?q=timeout&range=6h",
    );
    const other = panelLinkHref(
      {
        ...scope,
        range: {
          kind: "absolute",
          from: "2026-01-01T00:00:00.000Z",
          to: "2026-01-02T00:00:00.000Z",
        },
      },
      { title: "d", kind: "dashboard", dashboardId: "dsh_2", params: "var-env=${env2}" },
      { env2: "staging" },
    );
    expect(other.startsWith("/projects/prj_1/dashboards/dsh_2?")).toBe(true);
    const q = query(other);
    expect(q.getAll("var-service")).toEqual(["api", "web"]);
    expect(q.getAll("var-env")).toEqual(["staging"]);
    expect(q.get("from")).toBe("2026-01-01T00:00:00.000Z");
  });
});
