import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUCKET_STEPS, bucketFor, resolveWindow } from "../src/dashboards/panel-window.js";
import { DomainError, InvalidInputError } from "../src/lib/domain-errors.js";
import { NOW, panelQueryFixture } from "./helpers/panel-queries.js";

const iso = (window: { from: Date; to: Date; bucketSeconds: number }) => ({
  from: window.from.toISOString(),
  to: window.to.toISOString(),
  bucketSeconds: window.bucketSeconds,
});

describe("a panel query's window", () => {
  it("picks the smallest nice step giving at most maxDataPoints buckets", () => {
    expect(bucketFor(3600, 300)).toBe(15);
    expect(bucketFor(3600, 3600)).toBe(1);
    expect(bucketFor(900, 300)).toBe(5);
    expect(bucketFor(6 * 3600, 300)).toBe(300);
    expect(bucketFor(7 * 86_400, 300)).toBe(3600);
    expect(bucketFor(30 * 86_400, 300)).toBe(10_800);
    expect(bucketFor(90 * 86_400, 300)).toBe(43_200);
    // Past a day: whole days.
    expect(bucketFor(3650 * 86_400, 300)).toBe(13 * 86_400);
    for (const seconds of [60, 3600, 86_400, 30 * 86_400])
      for (const points of [10, 100, 300, 2000]) {
        const bucket = bucketFor(seconds, points);
        expect(seconds / bucket).toBeLessThanOrEqual(points);
        const smaller = BUCKET_STEPS.filter((s) => s < bucket).at(-1);
        if (smaller && bucket <= 86_400) expect(seconds / smaller).toBeGreaterThan(points);
      }
  });

  it("ends a relative range at the end of the bucket now falls in, so viewers share it", () => {
    expect(iso(resolveWindow("1h", 300, NOW))).toEqual({
      from: "2026-01-05T11:00:15.000Z",
      to: "2026-01-05T12:00:15.000Z",
      bucketSeconds: 15,
    });
    const later = new Date(NOW.getTime() + 7_000);
    expect(iso(resolveWindow("1h", 300, later))).toEqual(iso(resolveWindow("1h", 300, NOW)));
    expect(iso(resolveWindow("7d", 300, NOW))).toEqual({
      from: "2025-12-29T13:00:00.000Z",
      to: "2026-01-05T13:00:00.000Z",
      bucketSeconds: 3600,
    });
  });

  it("uses an absolute range as given, and refuses one reaching back over 3650 days", () => {
    const range = { from: "2026-01-05T10:00:00+02:00", to: "2026-01-05T10:30:00Z" };
    expect(iso(resolveWindow(range, 100, NOW))).toEqual({
      from: "2026-01-05T08:00:00.000Z",
      to: "2026-01-05T10:30:00.000Z",
      bucketSeconds: 300,
    });
    expect(() => resolveWindow("3651d", 300, NOW)).toThrow(InvalidInputError);
  });
});

describe("a panel query's refusals name the request's fields", () => {
  let fixture: Awaited<ReturnType<typeof panelQueryFixture>>;
  beforeAll(async () => {
    fixture = await panelQueryFixture({});
  });
  afterAll(() => fixture.close());

  const fieldsOf = async (input: unknown) => {
    const error = await fixture.run(input).catch((e: unknown) => e);
    // TQL's refusals are DomainErrors with code invalid_input (400) too.
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("invalid_input");
    return (error as DomainError).issues.map((i) => i.field);
  };
  const tql = "SELECT count() FROM traces WHERE service_name = {service:String}";

  it("refuses a missing or mistyped variable, naming variables.<name>", async () => {
    expect(await fieldsOf({ tql, timeRange: "1h" })).toEqual(["variables.service"]);
    expect(await fieldsOf({ tql, timeRange: "1h", variables: { service: 7 } })).toEqual([
      "variables.service",
    ]);
  });

  it("refuses a variable named as the window's, bad TQL, and a bad range", async () => {
    expect(await fieldsOf({ tql, timeRange: "1h", variables: { service: "a", to: "x" } })).toEqual([
      "variables.to",
    ]);
    expect(await fieldsOf({ tql: "SELECT FROM", timeRange: "1h" })).toEqual(["tql"]);
    expect(await fieldsOf({ tql: "SELECT * FROM system.tables", timeRange: "1h" })).toEqual([
      "tql",
    ]);
    expect(await fieldsOf({ tql, timeRange: "1y" })).toEqual(["timeRange"]);
    expect(await fieldsOf({ tql, timeRange: "99999d" })).toEqual(["timeRange"]);
    expect(await fieldsOf({ tql, timeRange: "1h", maxDataPoints: 5 })).toEqual(["maxDataPoints"]);
    expect(fixture.calls).toHaveLength(0);
  });

  it("takes a hostile value as a value: bound, never part of the SQL", async () => {
    const hostile = "x' OR 1=1) UNION ALL SELECT * FROM system.users --";
    const answer = fixture.run({ tql, timeRange: "1h", variables: { service: hostile } });
    await fixture.settle();
    expect(fixture.calls).toHaveLength(1);
    expect(fixture.calls[0]).not.toContain("system.users");
    fixture.waiting.splice(0)[0]?.release();
    await answer;
  });
});
