import { describe, expect, it } from "vitest";
import { compareRecommendations, recommend, severityAt } from "./recommendation.js";

const analyzer = { id: "performance.test", context: "performance" as const };
const rec = (subject: string, severity: "info" | "low" | "high" | "critical") =>
  recommend(analyzer, subject, { severity, title: subject, action: "fix", evidence: {} });

describe("recommendations", () => {
  it("builds the id from analyzer and subject and fills absent evidence", () => {
    expect(rec("GET /x", "low")).toEqual({
      id: "performance.test:GET /x",
      analyzer: "performance.test",
      context: "performance",
      severity: "low",
      title: "GET /x",
      action: "fix",
      evidence: { metrics: {}, labels: {}, breakdown: [], excerpts: [], traceIds: [], logIds: [] },
    });
  });

  it("sorts by severity, most urgent first, then by id", () => {
    const sorted = [
      rec("b", "low"),
      rec("a", "low"),
      rec("z", "critical"),
      rec("c", "info"),
      rec("d", "high"),
    ]
      .sort(compareRecommendations)
      .map((r) => r.id.split(":")[1]);
    expect(sorted).toEqual(["z", "d", "a", "b", "c"]);
  });

  it("maps a value to the first threshold it reaches", () => {
    const steps = [
      [0.5, "critical"],
      [0.25, "high"],
      [0.1, "medium"],
    ] as const;
    expect(severityAt(0.5, steps, "low")).toBe("critical");
    expect(severityAt(0.3, steps, "low")).toBe("high");
    expect(severityAt(0.1, steps, "low")).toBe("medium");
    expect(severityAt(0.05, steps, "low")).toBe("low");
  });
});
