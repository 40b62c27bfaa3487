import { describe, expect, it } from "vitest";
import type { MonitorNotification } from "../model.js";
import { emailMessage } from "./email.js";
import { formatDuration, maskUrl, notificationDetails, notificationTitle } from "./format.js";
import { slackMessage } from "./slack.js";

const down: MonitorNotification = {
  event: "monitor.down",
  projectId: "prj_1",
  monitor: { id: "mon_1", name: "Checkout <b>&", type: "api", url: "https://shop.example/pay" },
  incident: {
    id: "inc_1",
    startedAt: "2026-03-01T10:00:00.000Z",
    endedAt: null,
    durationMs: null,
  },
  check: {
    resultId: "run_1",
    startedAt: "2026-03-01T10:00:00.000Z",
    failedStep: "pay",
    reason: 'status_code equals "200": got 500 <@U123>',
    statusCode: 500,
  },
};
const recovered: MonitorNotification = {
  ...down,
  event: "monitor.recovered",
  monitor: { ...down.monitor, name: "Checkout" },
  incident: { ...down.incident, endedAt: "2026-03-01T10:04:12.000Z", durationMs: 252_000 },
};

describe("notification text", () => {
  it("formats durations with their two largest units", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(45_000)).toBe("45s");
    expect(formatDuration(252_000)).toBe("4m 12s");
    expect(formatDuration(3_600_000)).toBe("1h");
    expect(formatDuration(3_725_000)).toBe("1h 2m");
    expect(formatDuration(2 * 86_400_000 + 3 * 3_600_000 + 59_000)).toBe("2d 3h");
  });

  it("titles outages and recoveries", () => {
    expect(notificationTitle(down)).toBe("Checkout <b>& is down");
    expect(notificationTitle(recovered)).toBe("Checkout recovered after 4m 12s");
    expect(notificationDetails(down)).toEqual([
      { label: "Reason", value: down.check.reason },
      { label: "Failed step", value: "pay" },
      { label: "Status code", value: "500" },
      { label: "Started", value: "2026-03-01 10:00:00 UTC" },
      { label: "URL", value: "https://shop.example/pay" },
    ]);
  });

  it("masks secret URLs to their origin and last 4 characters", () => {
    expect(maskUrl("https://hooks.slack.com/services/T000/B000/abcdWXYZ")).toBe(
      "https://hooks.slack.com/…/WXYZ",
    );
  });

  it("escapes user text in Slack markup and in email HTML", () => {
    const slack = JSON.stringify(slackMessage(down).blocks);
    expect(slack).toContain("&lt;@U123&gt;");
    expect(slack).not.toContain("<@U123>");
    expect(slackMessage(recovered).text.split("\n")[0]).toBe("✅ Checkout recovered after 4m 12s");
    const email = emailMessage(down, ["a@example.com"]);
    expect(email.subject).toBe("[Vigil] Checkout <b>& is down");
    expect(email.html).toContain("Checkout &lt;b&gt;&amp; is down");
    expect(email.html).not.toContain("<b>&");
    expect(email.text).toContain("Reason: status_code equals");
  });
});
