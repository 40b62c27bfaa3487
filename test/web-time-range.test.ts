import { describe, expect, it } from "vitest";
import {
  DEFAULT_RANGE,
  parseRange,
  rangeParams,
  resolveRange,
  selectionRange,
  sessionRange,
  traceLogsHref,
  withRange,
  zoomOut,
} from "../web/src/lib/time-range-model.js";

const NOW = Date.parse("2026-11-28T22:30:40.000Z");
const params = (query: string) => new URLSearchParams(query);

describe("the dashboard's one time range", () => {
  it("reads a relative range, an absolute from/to (ISO or epoch ms), and nothing else", () => {
    expect(parseRange(params("range=6h"))).toEqual({ kind: "relative", key: "6h" });
    // Any length the read API takes (`<n>m|h|d`), not only the presets.
    expect(parseRange(params("range=90m"))).toEqual({ kind: "relative", key: "90m" });
    expect(parseRange(params("from=2026-11-28T20:00:00Z&to=2026-11-28T21:00:00.000Z"))).toEqual({
      kind: "absolute",
      from: "2026-11-28T20:00:00.000Z",
      to: "2026-11-28T21:00:00.000Z",
    });
    expect(
      parseRange(params(`from=${Date.parse("2026-11-28T20:00:00Z")}&to=2026-11-28T21:00:00Z`)),
    ).toEqual({
      kind: "absolute",
      from: "2026-11-28T20:00:00.000Z",
      to: "2026-11-28T21:00:00.000Z",
    });
    // from/to win over range, as in the read API.
    expect(
      parseRange(params("range=1h&from=2026-11-28T20:00:00Z&to=2026-11-28T21:00:00Z")),
    ).toEqual({
      kind: "absolute",
      from: "2026-11-28T20:00:00.000Z",
      to: "2026-11-28T21:00:00.000Z",
    });
    for (const bad of [
      "",
      "range=forever",
      "range=0h",
      "range=5y",
      "range=3651d",
      "from=2026-11-28T21:00:00Z&to=2026-11-28T20:00:00Z",
      "from=2026-11-28T21:00:00Z&to=2026-11-28T21:00:00Z",
      "from=yesterday&to=2026-11-28T21:00:00Z",
      "from=2026-11-28T20:00:00Z",
    ])
      expect(parseRange(params(bad)), bad).toBeNull();
  });

  it("writes a range back as the URL's parameters, clearing the other form", () => {
    expect(rangeParams({ kind: "relative", key: "6h" })).toEqual({
      range: "6h",
      from: undefined,
      to: undefined,
    });
    expect(
      rangeParams({
        kind: "absolute",
        from: "2026-11-28T20:00:00.000Z",
        to: "2026-11-28T21:00:00.000Z",
      }),
    ).toEqual({
      range: undefined,
      from: "2026-11-28T20:00:00.000Z",
      to: "2026-11-28T21:00:00.000Z",
    });
    for (const spec of [
      { kind: "relative", key: "7d" },
      { kind: "absolute", from: "2026-11-28T20:00:00.000Z", to: "2026-11-28T21:00:00.000Z" },
    ] as const) {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(rangeParams(spec))) if (v) query.set(k, v);
      expect(parseRange(query)).toEqual(spec);
    }
  });

  it("resolves a relative range to the window ending at the current minute, an absolute one as given", () => {
    const relative = resolveRange({ kind: "relative", key: "6h" }, NOW);
    expect(relative).toMatchObject({
      key: "6h",
      label: "Last 6 hours",
      from: "2026-11-28T16:31:00.000Z",
      to: "2026-11-28T22:31:00.000Z",
      ms: 6 * 3_600_000,
    });
    expect(resolveRange({ kind: "relative", key: "90m" }, NOW)).toMatchObject({
      key: "90m",
      label: "Last 90 minutes",
      ms: 90 * 60_000,
    });
    const absolute = resolveRange(
      { kind: "absolute", from: "2026-11-28T20:00:00.000Z", to: "2026-11-28T21:00:00.000Z" },
      NOW,
    );
    expect(absolute).toMatchObject({
      key: "custom",
      from: "2026-11-28T20:00:00.000Z",
      to: "2026-11-28T21:00:00.000Z",
      ms: 3_600_000,
    });
  });

  it("one default, then the session's range, unless the URL names one", () => {
    expect(DEFAULT_RANGE).toEqual({ kind: "relative", key: "1h" });
    expect(sessionRange("", null)).toEqual(DEFAULT_RANGE);
    expect(sessionRange("", "range=6h")).toEqual({ kind: "relative", key: "6h" });
    // A stored value that no longer parses is ignored, not trusted.
    expect(sessionRange("", "range=forever")).toEqual(DEFAULT_RANGE);
    expect(sessionRange("?q=timeout&range=24h", "range=6h")).toEqual({
      kind: "relative",
      key: "24h",
    });
    expect(sessionRange("?from=2026-11-28T20:00:00Z&to=2026-11-28T21:00:00Z", "range=6h")).toEqual({
      kind: "absolute",
      from: "2026-11-28T20:00:00.000Z",
      to: "2026-11-28T21:00:00.000Z",
    });
  });

  it("carries the range in a link, keeping the link's own parameters", () => {
    expect(withRange("/traces", { kind: "relative", key: "6h" })).toBe("/traces?range=6h");
    expect(withRange("~/projects/p/logs?q=timeout&range=1h", { kind: "relative", key: "6h" })).toBe(
      "~/projects/p/logs?q=timeout&range=6h",
    );
    expect(
      withRange("/errors?range=1h", {
        kind: "absolute",
        from: "2026-11-28T20:00:00.000Z",
        to: "2026-11-28T21:00:00.000Z",
      }),
    ).toBe("/errors?from=2026-11-28T20%3A00%3A00.000Z&to=2026-11-28T21%3A00%3A00.000Z");
  });

  it("a drag across a chart becomes an absolute window, widened to whole seconds", () => {
    const from = Date.parse("2026-11-28T20:00:00Z") / 1000;
    expect(selectionRange(from + 0.4, from + 600.2)).toEqual({
      kind: "absolute",
      from: "2026-11-28T20:00:00.000Z",
      to: "2026-11-28T20:10:01.000Z",
    });
    // In either direction; a selection narrower than a second is no zoom.
    expect(selectionRange(from + 600, from)).toEqual({
      kind: "absolute",
      from: "2026-11-28T20:00:00.000Z",
      to: "2026-11-28T20:10:00.000Z",
    });
    expect(selectionRange(from, from)).toBeNull();
    expect(selectionRange(Number.NaN, from)).toBeNull();
  });

  it("zooming out doubles the window around its middle, never past now", () => {
    expect(
      zoomOut(
        { kind: "absolute", from: "2026-11-28T20:00:00.000Z", to: "2026-11-28T21:00:00.000Z" },
        NOW,
      ),
    ).toEqual({
      kind: "absolute",
      from: "2026-11-28T19:30:00.000Z",
      to: "2026-11-28T21:30:00.000Z",
    });
    // A window near now keeps its width and ends at the current minute instead.
    expect(
      zoomOut(
        { kind: "absolute", from: "2026-11-28T21:30:00.000Z", to: "2026-11-28T22:30:00.000Z" },
        NOW,
      ),
    ).toEqual({
      kind: "absolute",
      from: "2026-11-28T20:31:00.000Z",
      to: "2026-11-28T22:31:00.000Z",
    });
    // A relative range widens to the next longer preset.
    expect(zoomOut({ kind: "relative", key: "1h" }, NOW)).toEqual({ kind: "relative", key: "6h" });
    expect(zoomOut({ kind: "relative", key: "90m" }, NOW)).toEqual({ kind: "relative", key: "6h" });
    expect(zoomOut({ kind: "relative", key: "30d" }, NOW)).toEqual({
      kind: "relative",
      key: "30d",
    });
  });

  it("links a trace's logs with the window around when it ran, whatever its age", () => {
    // A trace of 2.5 s, four months before NOW: no relative range reaches it.
    const href = traceLogsHref(
      "~/projects/p/logs",
      "0af7651916cd43dd8448eb211c80319c",
      "2026-08-01T10:00:12.345Z",
      "2026-08-01T10:00:14.845Z",
    );
    const [path, query = ""] = href.split("?");
    expect(path).toBe("~/projects/p/logs");
    const linked = new URLSearchParams(query);
    expect(linked.get("traceId")).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(linked.has("range")).toBe(false);
    // From its start less 15 minutes to its end plus 15 minutes, widened to whole minutes.
    expect(parseRange(linked)).toEqual({
      kind: "absolute",
      from: "2026-08-01T09:45:00.000Z",
      to: "2026-08-01T10:16:00.000Z",
    });
    // The session's range becomes that window, not the last 30 days.
    expect(sessionRange(`?${query}`, "range=1h")).toEqual(parseRange(linked));

    // One instant (an error's occurrence) is the window around it; a log to open goes along.
    const occurrence = new URLSearchParams(
      traceLogsHref(
        "~/projects/p/logs",
        "t1",
        "2026-11-28T20:00:00.000Z",
        undefined,
        "log-1",
      ).split("?")[1],
    );
    expect(Object.fromEntries(occurrence)).toEqual({
      traceId: "t1",
      log: "log-1",
      from: "2026-11-28T19:45:00.000Z",
      to: "2026-11-28T20:15:00.000Z",
    });
    // Epoch milliseconds are times too; an end before the start is read the other way round.
    expect(
      parseRange(
        new URLSearchParams(
          traceLogsHref(
            "/logs",
            "t1",
            String(Date.parse("2026-11-28T20:10:00Z")),
            "2026-11-28T20:00:00Z",
          ).split("?")[1],
        ),
      ),
    ).toEqual({
      kind: "absolute",
      from: "2026-11-28T19:45:00.000Z",
      to: "2026-11-28T20:25:00.000Z",
    });
    // Without a time it knows, the link names no range: the logs screen shows the session's.
    expect(traceLogsHref("/logs", "t 1", "not a time")).toBe("/logs?traceId=t+1");
  });
});
