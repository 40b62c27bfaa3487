import { describe, expect, it } from "vitest";
import { UnixTime } from "../telemetry/unix-time.js";
import { PriceTable } from "./derive/ai-prices.js";
import { mapTraces } from "./map-traces.js";
import type { TracesRequest } from "./otlp/otlp-messages.js";
import { firstOf, pathOf, senderOf } from "./resource.js";

const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

describe("senderOf", () => {
  it("names one SDK process: its service and instance id, else its host and pid", () => {
    expect(
      senderOf({ "service.name": "api", "service.instance.id": "i-1", "host.name": "h" }),
    ).toBe("api|i-1");
    expect(senderOf({ "service.name": "api", "host.name": "h", "process.pid": "42" })).toBe(
      "api|h/42",
    );
    expect(senderOf({})).toBe("|/");
  });

  it("is taken from a request's first resource when it is mapped", () => {
    const span = {
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      name: "GET /",
      startTimeUnixNano: "1764236400000000000",
      endTimeUnixNano: "1764236400100000000",
    };
    const resource = (pid: string) => ({
      resource: { attributes: [attr("service.name", "api"), attr("process.pid", pid)] },
      scopeSpans: [{ spans: [span] }],
    });
    const request = { resourceSpans: [resource("1"), resource("2")] } as TracesRequest;
    const options = {
      projectId: "prj_a",
      limits: { maxValueLength: 100, maxAttributes: 10 },
      received: new UnixTime(0, 0),
    };
    expect(mapTraces(request, options, new PriceTable()).sender).toBe("api|/1");
    expect(mapTraces({}, options, new PriceTable()).sender).toBe("");
  });
});

describe("attribute helpers", () => {
  it("firstOf takes the first name present and counts an empty value as absent", () => {
    const a = { "http.method": "GET", "http.request.method": "", "url.path": "/x" };
    expect(firstOf(a, "http.request.method", "http.method")).toBe("GET");
    expect(firstOf(a, "url.full", "http.url", "url.path")).toBe("/x");
    expect(firstOf(a, "http.route")).toBe("");
  });

  it("pathOf keeps a URL's or a path's path, without query or fragment", () => {
    expect(pathOf("/orders/7?id=1#top")).toBe("/orders/7");
    expect(pathOf("/a#b?c")).toBe("/a");
    expect(pathOf("/plain")).toBe("/plain");
    expect(pathOf("https://shop.example/cart?x=1")).toBe("/cart");
    expect(pathOf("not a url")).toBe("");
    expect(pathOf("")).toBe("");
  });
});
