import { describe, expect, it } from "vitest";
import type { AlertNotification, MonitorNotification } from "../notification-payloads.js";
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
    resolvedAt: null,
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
  incident: { ...down.incident, resolvedAt: "2026-03-01T10:04:12.000Z", durationMs: 252_000 },
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

  it("names a target that is not a URL as the target (tcp, dns, tls, heartbeat monitors)", () => {
    const tcp = {
      ...down,
      monitor: { ...down.monitor, type: "tcp", url: "tcp://db.internal:5432" },
    };
    expect(notificationDetails(tcp).at(-1)).toEqual({
      label: "Target",
      value: "tcp://db.internal:5432",
    });
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

const fired: AlertNotification = {
  event: "alert.fired",
  projectId: "prj_1",
  rule: { id: "alr_1", name: "Checkout p95", severity: "high", condition: "value > 800" },
  series: {
    key: '{"service":"checkout"}',
    keyHash: "0123456789abcdef",
    labels: { service: "checkout" },
  },
  value: 912.5,
  threshold: 800,
  firedAt: "2026-03-01T10:00:00.000Z",
  resolvedAt: null,
  message: "p95 is 912.5 <!here>",
  incidentId: "inc_9",
};

describe("alert notification text", () => {
  it("titles fires, reminders and resolves with the series' labels", () => {
    expect(notificationTitle(fired)).toBe("Checkout p95 (service=checkout) is firing");
    expect(notificationTitle({ ...fired, event: "alert.renotified" })).toBe(
      "Checkout p95 (service=checkout) is still firing",
    );
    const resolved = {
      ...fired,
      event: "alert.resolved" as const,
      value: 640,
      resolvedAt: "2026-03-01T10:04:12.000Z",
    };
    expect(notificationTitle(resolved)).toBe(
      "Checkout p95 (service=checkout) resolved after 4m 12s",
    );
    expect(notificationTitle({ ...fired, series: { key: "{}", keyHash: "x", labels: {} } })).toBe(
      "Checkout p95 is firing",
    );
    expect(notificationDetails(fired)).toEqual([
      { label: "Message", value: "p95 is 912.5 <!here>" },
      { label: "Value", value: "912.5" },
      { label: "Condition", value: "value > 800" },
      { label: "Severity", value: "high" },
      { label: "Labels", value: "service=checkout" },
      { label: "Firing since", value: "2026-03-01 10:00:00 UTC" },
    ]);
    expect(notificationDetails({ ...fired, value: null })[1]).toEqual({
      label: "Value",
      value: "no data",
    });
  });

  it("names the rule and incident in Slack and email, escaping the message", () => {
    const slack = slackMessage(fired);
    expect(slack.text.split("\n")[0]).toBe("🔴 Checkout p95 (service=checkout) is firing");
    const blocks = JSON.stringify(slack.blocks);
    expect(blocks).toContain("alert rule alr_1 · incident inc_9");
    expect(blocks).toContain("&lt;!here&gt;");
    const email = emailMessage(
      { ...fired, event: "alert.resolved", resolvedAt: "2026-03-01T10:01:00.000Z" },
      ["a@example.com"],
    );
    expect(email.subject).toBe("[Vigil] Checkout p95 (service=checkout) resolved after 1m");
    expect(email.html).toContain("#2e7d32");
    expect(email.text).toContain("Alert rule alr_1 · incident inc_9");
    expect(email.html).toContain("p95 is 912.5 &lt;!here&gt;");
  });
});
