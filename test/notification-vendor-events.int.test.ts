import { randomBytes, randomUUID } from "node:crypto";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import type { NewNotificationDelivery } from "../src/meta/repositories/notification-deliveries.js";
import { createChannel } from "../src/notifications/channels.js";
import { createNotificationDispatcher } from "../src/notifications/dispatcher.js";
import type {
  AlertNotification,
  MonitorNotification,
  Notification,
} from "../src/notifications/notification-payloads.js";
import { useChannelService, useLocalReceivers } from "./helpers/channel-harness.js";
import {
  bodyOf,
  discordRules,
  opsgenieRules,
  pagerDutyRules,
  teamsRules,
  telegramRules,
  useFakeVendor,
} from "./helpers/fake-vendor.js";
import { linksIn } from "./helpers/smtp-sink.js";

// Real notifications through the outbox dispatcher to every channel type: an outage that an
// escalation policy sends with an acknowledge link, its recovery, and an alert's fire, reminder
// and resolve. Each local fake checks what its vendor would; email goes through SMTP end to end.

const ROUTING_KEY = randomBytes(16).toString("hex");
const OPSGENIE_KEY = randomUUID();
const BOT_TOKEN = `42:${randomBytes(18).toString("base64url")}`;
const CHAT_ID = "@vigil_oncall";
const DISCORD_TOKEN = randomBytes(24).toString("hex");
const ACK = "https://vigil.example/ack/tok_123?x=1&y=2";
const ESCALATION = "Escalation step 2 of 3 (round 1 of 2) — Checkout on-call";

const pagerDuty = useFakeVendor(pagerDutyRules);
const opsgenie = useFakeVendor(opsgenieRules(OPSGENIE_KEY));
const telegram = useFakeVendor(telegramRules(BOT_TOKEN, CHAT_ID));
const discord = useFakeVendor(discordRules(DISCORD_TOKEN));
const teams = useFakeVendor(teamsRules);
const receivers = useLocalReceivers();
const h = useChannelService(receivers);
h.secrets.push(ROUTING_KEY, OPSGENIE_KEY, BOT_TOKEN, DISCORD_TOKEN);

const at = "2026-06-01T12:00:00.000Z";
const down: MonitorNotification & Notification = {
  event: "monitor.down",
  projectId: "",
  monitor: { id: "mon_v", name: "Checkout <b>& co", type: "api", url: "https://shop.example/pay" },
  incident: { id: "inc_v", startedAt: at, resolvedAt: null, durationMs: null },
  check: {
    resultId: "run_v",
    startedAt: at,
    failedStep: "pay",
    reason: 'status_code equals "200": got 500 <script>',
    statusCode: 500,
  },
  acknowledgeUrl: ACK,
  escalation: {
    policyId: "esc_1",
    policyName: "Checkout on-call",
    step: 2,
    steps: 3,
    round: 1,
    rounds: 2,
  },
};
const { acknowledgeUrl: _link, escalation: _step, ...downPayload } = down;
const recovered: MonitorNotification = {
  ...downPayload,
  event: "monitor.recovered",
  incident: { ...down.incident, resolvedAt: "2026-06-01T12:04:12.000Z", durationMs: 252_000 },
};
const fired: AlertNotification & Notification = {
  event: "alert.fired",
  projectId: "",
  rule: { id: "alr_v", name: "Checkout p95", severity: "high", condition: "value > 800" },
  series: {
    key: '{"service":"checkout"}',
    keyHash: "0123456789abcdef",
    labels: { service: "checkout" },
  },
  value: 912.5,
  threshold: 800,
  firedAt: at,
  resolvedAt: null,
  message: "p95 is 912.5",
  incidentId: "inc_a",
  acknowledgeUrl: ACK,
};
const renotified: Notification = { ...fired, event: "alert.renotified" };
const { acknowledgeUrl: _ack, ...firedWithoutLink } = fired;
const resolved: Notification = {
  ...firedWithoutLink,
  event: "alert.resolved",
  resolvedAt: "2026-06-01T12:01:00.000Z",
};

const channelIds: Record<string, string> = {};
let seq = 0;
const enqueue = async (channelId: string, payload: Notification) => {
  const row: NewNotificationDelivery = {
    id: `ntf_vend${String(++seq).padStart(4, "0")}`,
    projectId: h.projectId,
    channelId,
    monitorId: null,
    incidentId: "incident" in payload ? payload.incident.id : payload.incidentId,
    event: payload.event,
    payload: { ...payload, projectId: h.projectId },
    createdAt: at,
  };
  await h.service.deps.meta.transaction(({ repos }) =>
    repos.notificationDeliveries.insertMany([row]),
  );
  return row.id;
};

/** Waits until the delivery is sent (the service's own dispatcher may have claimed it). */
async function sent(id: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const delivery = await h.service.deps.meta.repos.notificationDeliveries.findById(id);
    if (delivery?.status === "sent") return;
    if (delivery?.status === "failed" || Date.now() > deadline)
      throw new Error(`${id} ${delivery?.event}: ${delivery?.status} ${delivery?.lastError}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  const ctx = { deps: h.service.deps.domain, actor: { kind: "system" as const } };
  const settings: Record<string, [string, Record<string, unknown>]> = {
    pagerduty: ["pagerduty", { routingKey: ROUTING_KEY, apiUrl: pagerDuty.current().url }],
    opsgenie: ["opsgenie", { apiKey: OPSGENIE_KEY, apiUrl: opsgenie.current().url }],
    telegram: [
      "telegram",
      { botToken: BOT_TOKEN, chatId: CHAT_ID, apiUrl: telegram.current().url },
    ],
    discord: [
      "discord",
      { webhookUrl: `${discord.current().url}/api/webhooks/9/${DISCORD_TOKEN}` },
    ],
    teams: ["teams", { webhookUrl: `${teams.current().url}/workflows/abc/invoke?sig=s1` }],
    slack: ["slack", { webhookUrl: `${receivers.slackBase}/services/V/V/events` }],
    email: ["email", { to: ["oncall@example.com"] }],
  };
  for (const [name, [type, values]] of Object.entries(settings)) {
    const channel = await createChannel({
      ctx,
      projectId: h.projectId,
      input: { name: `ev-${name}`, type: type as "slack", settings: values },
    });
    channelIds[name] = channel.id;
  }
  // This file's dispatcher sends on a fixed clock; the service's would race it for the rows.
  await h.service.deps.notifier.stop();
  const dispatcher = createNotificationDispatcher({
    meta: h.service.deps.meta,
    clock: { now: () => new Date(at) },
    logger: pino({ level: "silent" }),
    ...h.channels,
  });
  // One event at a time, so each fake receives them in this order.
  for (const payload of [down, recovered, fired, renotified, resolved]) {
    const ids: string[] = [];
    for (const channelId of Object.values(channelIds)) ids.push(await enqueue(channelId, payload));
    await dispatcher.deliverDue();
    for (const id of ids) await sent(id);
  }
});

describe("PagerDuty events", () => {
  it("triggers with the acknowledge link and escalation, resolves with the same dedup key", () => {
    const events = pagerDuty.current().requests.map(bodyOf);
    const monitorKey = "vigil-mon_v-inc_v";
    const alertKey = `vigil-alr_v-0123456789abcdef-${Date.parse(at)}`;
    expect(events.map((e) => [e.event_action, e.dedup_key])).toEqual([
      ["trigger", monitorKey],
      ["resolve", monitorKey],
      ["trigger", alertKey],
      ["trigger", alertKey],
      ["resolve", alertKey],
    ]);
    expect(events[0]).toMatchObject({
      routing_key: ROUTING_KEY,
      links: [{ href: ACK, text: "Acknowledge in Vigil" }],
      payload: {
        summary: "Checkout <b>& co is down",
        source: "shop.example",
        severity: "critical",
        timestamp: at,
        custom_details: { Escalation: ESCALATION, "Failed step": "pay" },
      },
    });
    expect(events[1]).toEqual({
      routing_key: ROUTING_KEY,
      event_action: "resolve",
      dedup_key: monitorKey,
    });
    expect(events[2]).toMatchObject({
      payload: {
        severity: "error",
        class: "alert",
        summary: "Checkout p95 (service=checkout) is firing",
      },
    });
  });
});

describe("Opsgenie events", () => {
  it("creates alerts by alias with the GenieKey, closes them by alias", () => {
    const requests = opsgenie.current().requests;
    expect(requests.every((r) => r.headers.authorization === `GenieKey ${OPSGENIE_KEY}`)).toBe(
      true,
    );
    expect(requests.map((r) => `${r.path}?${r.query}`)).toEqual([
      "/v2/alerts?",
      "/v2/alerts/vigil-mon_v-inc_v/close?identifierType=alias",
      "/v2/alerts?",
      "/v2/alerts?",
      `/v2/alerts/vigil-alr_v-0123456789abcdef-${Date.parse(at)}/close?identifierType=alias`,
    ]);
    expect(bodyOf(requests[0])).toMatchObject({
      message: "Checkout <b>& co is down",
      alias: "vigil-mon_v-inc_v",
      priority: "P1",
      details: { Escalation: ESCALATION, "Acknowledge in Vigil": ACK },
    });
    expect(bodyOf(requests[0]).description).toContain(`Acknowledge in Vigil: ${ACK}`);
    expect(bodyOf(requests[1])).toEqual({
      source: "Vigil",
      note: "Checkout <b>& co recovered after 4m 12s",
    });
    expect(bodyOf(requests[2]).priority).toBe("P2");
  });
});

describe("Telegram, Discord, Teams and Slack messages", () => {
  it("Telegram: escaped HTML the API parses, the escalation and the acknowledge link", () => {
    const texts = telegram.current().requests.map((r) => String(bodyOf(r).text));
    expect(texts[0]).toContain("<b>🔴 Checkout &lt;b&gt;&amp; co is down</b>");
    expect(texts[0]).toContain(`<i>${ESCALATION}</i>`);
    expect(texts[0]).toContain(
      "<b>Reason:</b> status_code equals &quot;200&quot;: got 500 &lt;script&gt;",
    );
    expect(texts[0]).toContain(
      `<a href="https://vigil.example/ack/tok_123?x=1&amp;y=2">Acknowledge</a>`,
    );
    expect(texts[1]).toMatch(/^<b>✅ Checkout &lt;b&gt;&amp; co recovered after 4m 12s<\/b>/);
    expect(texts[1]).not.toContain("Acknowledge");
  });

  it("Discord: colored embeds, markdown escaped, the acknowledge link in the description", () => {
    const embeds = discord.current().requests.map((r) => bodyOf(r).embeds[0]);
    expect(embeds[0]).toMatchObject({
      title: "Checkout <b>& co is down",
      color: 0xc62828,
      timestamp: at,
    });
    expect(embeds[0].description).toBe(
      `**Escalation step 2 of 3 \\(round 1 of 2\\) — Checkout on-call**\n**[Acknowledge](${ACK})**`,
    );
    expect(embeds[1]).toMatchObject({ color: 0x2e7d32, timestamp: "2026-06-01T12:04:12.000Z" });
    expect(embeds[1].description).toBeUndefined();
  });

  it("Teams: the escalation line and an Acknowledge button on the card", () => {
    const cards = teams.current().requests.map((r) => bodyOf(r).attachments[0].content);
    expect(cards[0].body[1]).toMatchObject({
      type: "TextBlock",
      text: ESCALATION,
      color: "Warning",
    });
    expect(cards[0].body[2].facts).toContainEqual({ title: "Failed step", value: "pay" });
    expect(cards[0].actions).toEqual([{ type: "Action.OpenUrl", title: "Acknowledge", url: ACK }]);
    expect(cards[1].actions).toBeUndefined();
    expect(cards[1].body[0].color).toBe("Good");
  });

  it("Slack: the escalation as context and an Acknowledge link button", () => {
    const posts = receivers.slackPosts.filter((p) => p.path.endsWith("/events"));
    const blocks = posts[0]?.body.blocks as { type: string; elements?: unknown[] }[];
    expect(blocks[1]).toEqual({
      type: "context",
      elements: [{ type: "mrkdwn", text: `*${ESCALATION}*` }],
    });
    expect(blocks.find((b) => b.type === "actions")?.elements).toEqual([
      expect.objectContaining({
        type: "button",
        url: ACK,
        text: { type: "plain_text", text: "Acknowledge" },
      }),
    ]);
    expect(posts[0]?.body.text).toContain(`Acknowledge: ${ACK}`);
    expect(JSON.stringify(posts[1]?.body.blocks)).not.toContain("actions");
  });
});

describe("email through SMTP", () => {
  const mailTo = () => receivers.mails.filter((m) => m.recipients.includes("oncall@example.com"));

  it("an escalated outage: subject, banner, intro, details and the Acknowledge button", () => {
    const [mail] = mailTo();
    expect(mail?.subject).toBe("[Vigil] Checkout <b>& co is down (escalation step 2 of 3)");
    expect(mail?.from).toBe("Vigil <alerts@vigil.test>");
    expect(mail?.text).toContain(`${ESCALATION}. Nobody has acknowledged it yet`);
    expect(mail?.text).toContain("The monitor “Checkout <b>& co” failed its checks and is down.");
    expect(mail?.text).toContain('Reason: status_code equals "200": got 500 <script>');
    expect(mail?.text).toContain(`Acknowledge: ${ACK}`);
    expect(mail?.html).toContain("Checkout &lt;b&gt;&amp; co is down");
    expect(mail?.html).not.toContain("<script>");
    expect(mail?.html).toContain(`<strong>${ESCALATION}</strong>`);
    expect(mail?.html).toContain(`<a href="https://vigil.example/ack/tok_123?x=1&amp;y=2"`);
    expect(linksIn(mail ?? { text: "", html: "" })).toEqual(["https://shop.example/pay", ACK]);
  });

  it("recovery, fire, reminder and resolve each have their own words", () => {
    const mails = mailTo();
    expect(mails.map((m) => m.subject)).toEqual([
      "[Vigil] Checkout <b>& co is down (escalation step 2 of 3)",
      "[Vigil] Checkout <b>& co recovered after 4m 12s",
      "[Vigil] Checkout p95 (service=checkout) is firing",
      "[Vigil] Checkout p95 (service=checkout) is still firing",
      "[Vigil] Checkout p95 (service=checkout) resolved after 1m",
    ]);
    expect(mails[1]?.text).toContain("passes its checks again; its incident is resolved.");
    expect(mails[1]?.text).not.toContain("Acknowledge");
    expect(mails[2]?.text).toContain(
      "The alert rule “Checkout p95” fired for service=checkout: its condition (value > 800) holds.",
    );
    expect(mails[2]?.html).toContain(">Acknowledge</a>");
    expect(mails[3]?.text).toContain("A reminder: the alert rule “Checkout p95” is still firing");
    expect(mails[4]?.text).toContain("no longer fires for service=checkout; it is resolved.");
    expect(mails[4]?.html).toContain("#2e7d32");
  });
});
