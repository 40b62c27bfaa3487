import { describe, expect, it } from "vitest";
import {
  alertFromPanelHref,
  alertQueryFrom,
  alertQueryFromParams,
  sqlLiteral,
} from "../web/src/screens/dashboards/edit/alert-link.js";

describe("a panel query made into an alert's", () => {
  it("looks back five minutes where the panel read the dashboard's window", () => {
    expect(
      alertQueryFrom(
        "SELECT $__timeInterval(timestamp) AS t, count() AS value FROM traces WHERE $__timeFilter( timestamp ) AND duration_ms < {bucket_seconds:UInt32} GROUP BY t",
      ),
    ).toBe(
      "SELECT toStartOfInterval(timestamp, INTERVAL 1 MINUTE) AS t, count() AS value FROM traces WHERE timestamp >= now() - INTERVAL 5 MINUTE AND duration_ms < 60 GROUP BY t",
    );
    expect(
      alertQueryFrom("SELECT 1 WHERE t >= {from:DateTime64(3)} AND t < {to:DateTime64(3)}"),
    ).toBe("SELECT 1 WHERE t >= (now() - INTERVAL 5 MINUTE) AND t < now()");
  });

  it("writes the variables' current values as literals, escaped, leaving the others", () => {
    const tql =
      "SELECT count() AS value FROM logs WHERE service_name IN {svc:Array(String)} AND message = {msg:String} AND level = {level:String} AND x = '{svc:String}'";
    expect(alertQueryFrom(tql, { svc: ["a", "b'c"], msg: "it\\'s" })).toBe(
      "SELECT count() AS value FROM logs WHERE service_name IN ['a', 'b\\'c'] AND message = 'it\\\\\\'s' AND level = {level:String} AND x = '{svc:String}'",
    );
    expect(sqlLiteral(3)).toBe("3");
    expect(sqlLiteral(true)).toBe("true");
  });

  it("keeps a macro without its call as written", () => {
    expect(alertQueryFrom("SELECT $__timeFilter FROM x")).toBe("SELECT $__timeFilter FROM x");
  });
});

describe("the alert form's pre-fill", () => {
  it("opens a new rule named after the panel, its query made runnable", () => {
    const href = alertFromPanelHref(
      "prj 1",
      { title: "Checkout errors" },
      { tql: "SELECT count() AS value FROM logs WHERE service_name = {service:String}" },
      { variables: { service: "checkout" }, dashboardTitle: "Shop" },
    );
    expect(href.startsWith("/projects/prj%201/alerts/new?")).toBe(true);
    const params = new URLSearchParams(href.slice(href.indexOf("?")));
    expect(Object.fromEntries(params)).toEqual({
      name: "Checkout errors",
      query: "SELECT count() AS value FROM logs WHERE service_name = 'checkout'",
      description: "From the panel “Checkout errors” of the dashboard “Shop”.",
    });
  });

  it("makes a query carried as it is runnable: var-<name> values typed by their placeholders", () => {
    const query =
      "SELECT count() AS value FROM traces WHERE $__timeFilter(timestamp) AND service_name IN {svc:Array(String)} AND duration_ms > {min:Float64} AND env = {env:String}";
    const params = new URLSearchParams({ query, name: "Slow" });
    params.append("var-svc", "a");
    params.append("var-svc", "b");
    params.append("var-min", "250");
    params.append("var-env", "$__all");
    expect(alertQueryFromParams(query, params)).toBe(
      "SELECT count() AS value FROM traces WHERE timestamp >= now() - INTERVAL 5 MINUTE AND service_name IN ['a', 'b'] AND duration_ms > 250 AND env = {env:String}",
    );
  });
});
