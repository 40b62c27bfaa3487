import { describe, expect, it } from "vitest";
import { ALERT_SEVERITIES } from "./alert-catalog.js";
import { INCIDENT_SEVERITIES } from "./incident-catalog.js";
import { SEVERITIES, SEVERITY_RANK } from "./severity.js";

describe("severities", () => {
  it("are one set for alert rules and incidents, ranked in rising order", () => {
    expect(ALERT_SEVERITIES).toBe(SEVERITIES);
    expect(INCIDENT_SEVERITIES).toBe(SEVERITIES);
    expect(SEVERITY_RANK).toEqual({ low: 0, medium: 1, high: 2, critical: 3 });
  });
});
