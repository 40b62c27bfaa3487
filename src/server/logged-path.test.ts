import { describe, expect, it } from "vitest";
import { loggedPath } from "./server.js";

describe("the path a request is logged under", () => {
  it("drops the query", () => {
    expect(loggedPath("/api/projects?limit=5")).toBe("/api/projects");
  });

  it("masks the token of a link even when the path matches no route", () => {
    expect(loggedPath("/ping/abcDEF123/")).toBe("/ping/:token/");
    expect(loggedPath("/ping/abcDEF123/fail/extra")).toBe("/ping/:token/fail/extra");
    expect(loggedPath("/ack/abcDEF123/x")).toBe("/ack/:token/x");
    expect(loggedPath("/invite/abcDEF123?x=1")).toBe("/invite/:token");
    expect(loggedPath("/status/shop/subscribe/confirm/abc123/")).toBe(
      "/status/shop/subscribe/confirm/:token/",
    );
    expect(loggedPath("/status/shop/unsubscribe/abc123")).toBe("/status/shop/unsubscribe/:token");
  });

  it("leaves other paths as they are", () => {
    expect(loggedPath("/status/shop")).toBe("/status/shop");
    expect(loggedPath("/v1/traces/abc")).toBe("/v1/traces/abc");
  });
});
