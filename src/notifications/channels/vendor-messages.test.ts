import { describe, expect, it } from "vitest";
import type { AlertNotification, MonitorNotification } from "../notification-payloads.js";
import { discordMessage, escapeDiscord } from "./discord.js";
import { emailMessage } from "./email.js";
import { escalationText, problemKey, problemSource } from "./format.js";
import { opsgenieAlert } from "./opsgenie.js";
import { pagerDutyEvent } from "./pagerduty.js";
import { teamsMessage } from "./teams.js";
import { telegramText } from "./telegram.js";

const down: MonitorNotification = {
  event: "monitor.down",
  projectId: "prj_1",
  monitor: { id: "mon_1", name: 'A <b> & "B"', type: "tcp", url: "tcp://db.internal:5432" },
  incident: {
    id: "inc_1",
    startedAt: "2026-03-01T10:00:00.000Z",
    resolvedAt: null,
    durationMs: null,
  },
  check: {
    resultId: "run_1",
    startedAt: "2026-03-01T10:00:00.000Z",
    failedStep: null,
    reason: "connect: ECONNREFUSED *bold* [x](y)",
    statusCode: null,
  },
};
const fired: AlertNotification = {
  event: "alert.fired",
  projectId: "prj_1",
  rule: { id: "alr_1", name: "Errors", severity: "low", condition: "value > 5" },
  series: { key: "{}", keyHash: "ffff000011112222", labels: {} },
  value: 7,
  threshold: 5,
  firedAt: "2026-03-01T10:00:00.000Z",
  resolvedAt: null,
  message: "x".repeat(300),
  incidentId: null,
};
const step = {
  policyId: "esc_1",
  policyName: "Night\nshift",
  step: 1,
  steps: 2,
  round: 1,
  rounds: 1,
};

describe("the shared pieces of vendor messages", () => {
  it("words the escalation step, leaving out the round of a policy that does not repeat", () => {
    expect(escalationText(down)).toBeUndefined();
    expect(escalationText({ ...down, escalation: step })).toBe(
      "Escalation step 1 of 2 — Night shift",
    );
    expect(escalationText({ ...down, escalation: { ...step, round: 2, rounds: 3 } })).toBe(
      "Escalation step 1 of 2 (round 2 of 3) — Night shift",
    );
  });

  it("keys a problem by monitor and incident, or rule, series and fire time", () => {
    expect(problemKey(down)).toBe("vigil-mon_1-inc_1");
    expect(problemKey({ ...down, event: "monitor.recovered" })).toBe("vigil-mon_1-inc_1");
    expect(problemKey(fired)).toBe(`vigil-alr_1-ffff000011112222-${Date.parse(fired.firedAt)}`);
    expect(problemSource(down)).toBe("db.internal:5432");
    expect(problemSource({ ...down, monitor: { ...down.monitor, url: "dns A example.com" } })).toBe(
      "dns A example.com",
    );
    expect(
      problemSource({ ...down, monitor: { ...down.monitor, url: "https://x.example/a" } }),
    ).toBe("x.example");
    expect(problemSource(fired)).toBe("Errors");
  });
});

describe("vendor payloads", () => {
  it("PagerDuty: no links without an acknowledge link; a low alert is info", () => {
    const event = pagerDutyEvent(down, "k".repeat(32));
    expect(event).not.toHaveProperty("links");
    expect(pagerDutyEvent(fired, "k")).toMatchObject({ payload: { severity: "info" } });
    expect(pagerDutyEvent({ ...fired, event: "alert.resolved" }, "k")).toEqual({
      routing_key: "k",
      event_action: "resolve",
      dedup_key: problemKey(fired),
    });
  });

  it("Opsgenie: the message cut to 130 characters, priority from severity", () => {
    const long = { ...down, monitor: { ...down.monitor, name: "n".repeat(200) } };
    const alert = opsgenieAlert(long);
    expect(String(alert.message)).toHaveLength(130);
    expect(opsgenieAlert(fired).priority).toBe("P4");
  });

  it("Telegram: every user value escaped for HTML parse mode", () => {
    const text = telegramText({ ...down, acknowledgeUrl: "https://v.example/ack/a?b=1&c=2" });
    expect(text).toContain("<b>🔴 A &lt;b&gt; &amp; &quot;B&quot; is down</b>");
    expect(text).toContain('<a href="https://v.example/ack/a?b=1&amp;c=2">Acknowledge</a>');
  });

  it("Discord: markdown escaped, long values cut to the field limit", () => {
    expect(escapeDiscord("*bold* [x](y) `c` _i_ ~s~ |s| > q")).toBe(
      "\\*bold\\* \\[x\\]\\(y\\) \\`c\\` \\_i\\_ \\~s\\~ \\|s\\| \\> q",
    );
    const body = discordMessage({ ...fired, message: "m".repeat(2000) }) as {
      embeds: { fields: { name: string; value: string; inline: boolean }[] }[];
    };
    const message = body.embeds[0]?.fields.find((f) => f.name === "Message");
    expect(message?.value).toHaveLength(1024);
    expect(message?.inline).toBe(false);
  });

  it("Teams: no actions without an acknowledge link; no markdown link from user text", () => {
    const card = (teamsMessage(down).attachments as { content: Record<string, unknown> }[])[0]
      ?.content;
    const facts = JSON.stringify(card?.body);
    expect(facts).toContain("[x]\u200b(y)");
    expect(facts).not.toContain("[x](y)");
    expect(card).not.toHaveProperty("actions");
    expect(card?.version).toBe("1.4");
  });

  it("email: the escalation in the subject and a banner; no button without a link", () => {
    const mail = emailMessage({ ...fired, escalation: step }, ["a@example.com"]);
    expect(mail.subject).toBe("[Vigil] Errors is firing (escalation step 1 of 2)");
    expect(mail.text.split("\n")[2]).toBe(
      "Escalation step 1 of 2 — Night shift. Nobody has acknowledged it yet, so the escalation policy notifies you.",
    );
    expect(mail.html).not.toContain(">Acknowledge</a>");
    expect(mail.html).toContain("<strong>Escalation step 1 of 2 — Night shift</strong>");
  });
});
