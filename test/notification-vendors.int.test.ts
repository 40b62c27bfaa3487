import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
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
import type { Session } from "./helpers/roles.js";

// The incident and chat channels (PagerDuty, Opsgenie, Telegram, Discord, Microsoft Teams) through
// the API: listed with their settings' schemas, created with secrets masked, tested against local
// fakes that answer as the vendors do, failures logged with every secret redacted.

const ROUTING_KEY = randomBytes(16).toString("hex");
const OPSGENIE_KEY = randomUUID();
const BOT_TOKEN = `123456789:${randomBytes(18).toString("base64url")}`;
const CHAT_ID = "-1001234567890";
const DISCORD_TOKEN = randomBytes(24).toString("hex");
const TEAMS_SIG = randomBytes(20).toString("base64url");

const pagerDuty = useFakeVendor(pagerDutyRules);
const opsgenie = useFakeVendor(opsgenieRules(OPSGENIE_KEY));
const telegram = useFakeVendor(telegramRules(BOT_TOKEN, CHAT_ID));
const discord = useFakeVendor(discordRules(DISCORD_TOKEN));
const teams = useFakeVendor(teamsRules);
const receivers = useLocalReceivers();
const h = useChannelService(receivers);
const { secrets, read, base, create } = h;
secrets.push(ROUTING_KEY, OPSGENIE_KEY, BOT_TOKEN, DISCORD_TOKEN, TEAMS_SIG);
let owner: Session;
beforeAll(() => {
  ({ owner } = h);
});

interface TestResult {
  ok: boolean;
  error?: string;
  deliveryId: string;
}
const runTest = async (channelId: string) =>
  read<TestResult>(await owner.post(`${base()}/${channelId}/test`));
const teamsUrl = (origin: string, sig = TEAMS_SIG) =>
  `${origin}/workflows/4f1c/triggers/manual/paths/invoke?api-version=1&sig=${sig}`;

describe("GET /api/channel-types", () => {
  it("lists the vendor channels with their settings' JSON Schema and secret settings", async () => {
    const { data } = await read<{
      data: {
        type: string;
        label: string;
        available: boolean;
        secretSettings: string[];
        settings: { properties: Record<string, { enum?: string[] }>; required?: string[] };
      }[];
    }>(await owner.get("/api/channel-types"));
    expect(data.map((t) => t.type)).toEqual([
      "webhook",
      "slack",
      "email",
      "pagerduty",
      "teams",
      "discord",
      "telegram",
      "opsgenie",
    ]);
    const byType = Object.fromEntries(data.map((t) => [t.type, t]));
    expect(byType.pagerduty).toMatchObject({
      label: "PagerDuty",
      available: true,
      secretSettings: ["routingKey"],
      settings: { required: ["routingKey"] },
    });
    expect(byType.pagerduty?.settings.properties.region?.enum).toEqual(["us", "eu"]);
    expect(byType.opsgenie?.secretSettings).toEqual(["apiKey"]);
    expect(byType.telegram?.secretSettings).toEqual(["botToken"]);
    expect(byType.telegram?.settings.required?.sort()).toEqual(["botToken", "chatId"]);
    expect(byType.teams?.secretSettings).toEqual(["webhookUrl"]);
    expect(byType.discord?.secretSettings).toEqual(["webhookUrl"]);
  });
});

describe("creating and testing vendor channels", () => {
  it("PagerDuty: masks the key and triggers a sample with its own dedup key", async () => {
    const channel = await create({
      name: "pd",
      type: "pagerduty",
      settings: { routingKey: ROUTING_KEY, apiUrl: pagerDuty.current().url },
    });
    expect(channel.settings).toEqual({
      region: "us",
      apiUrl: pagerDuty.current().url,
      routingKey: `…${ROUTING_KEY.slice(-4)}`,
    });
    const result = await runTest(channel.id);
    expect(result).toEqual({ ok: true, deliveryId: expect.stringMatching(/^ntf_/) });
    const [request] = pagerDuty.current().requests.slice(-1);
    expect(request?.path).toBe("/v2/enqueue");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toMatchObject({
      routing_key: ROUTING_KEY,
      event_action: "trigger",
      dedup_key: `vigil-test-${result.deliveryId}`,
      client: "Vigil",
      payload: {
        summary: "Sample monitor (test notification) is down",
        source: "example.com",
        severity: "critical",
        component: "Sample monitor (test notification)",
        class: "monitor",
        custom_details: { "Status code": "503" },
      },
    });
  });

  it("Opsgenie: sends the GenieKey header and creates a sample alert", async () => {
    const channel = await create({
      name: "og",
      type: "opsgenie",
      settings: { apiKey: OPSGENIE_KEY, region: "eu", apiUrl: opsgenie.current().url },
    });
    expect(channel.settings).toMatchObject({ region: "eu", apiKey: `…${OPSGENIE_KEY.slice(-4)}` });
    const result = await runTest(channel.id);
    expect(result.ok).toBe(true);
    const [request] = opsgenie.current().requests.slice(-1);
    expect(request?.path).toBe("/v2/alerts");
    expect(request?.headers.authorization).toBe(`GenieKey ${OPSGENIE_KEY}`);
    expect(request?.body).toMatchObject({
      message: "Sample monitor (test notification) is down",
      alias: `vigil-test-${result.deliveryId}`,
      source: "Vigil",
      priority: "P1",
      tags: ["vigil", "monitor", "test"],
      entity: "Sample monitor (test notification)",
    });
  });

  it("Telegram: posts sendMessage in HTML mode to the bot's path", async () => {
    const channel = await create({
      name: "tg",
      type: "telegram",
      settings: { botToken: BOT_TOKEN, chatId: CHAT_ID, apiUrl: telegram.current().url },
    });
    expect(channel.settings).toMatchObject({
      chatId: CHAT_ID,
      botToken: `…${BOT_TOKEN.slice(-4)}`,
    });
    expect(await runTest(channel.id)).toMatchObject({ ok: true });
    const [request] = telegram.current().requests.slice(-1);
    expect(request?.path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(request?.body).toMatchObject({
      chat_id: CHAT_ID,
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
    });
    expect(bodyOf(request).text).toMatch(
      /^<b>🔴 Sample monitor \(test notification\) is down<\/b>/,
    );
  });

  it("Discord: posts one embed with mentions off", async () => {
    const channel = await create({
      name: "dc",
      type: "discord",
      settings: { webhookUrl: `${discord.current().url}/api/webhooks/123/${DISCORD_TOKEN}` },
    });
    expect(channel.settings.webhookUrl).toBe(
      `${discord.current().url}/…/${DISCORD_TOKEN.slice(-4)}`,
    );
    expect(await runTest(channel.id)).toMatchObject({ ok: true });
    const body = bodyOf(discord.current().requests.at(-1));
    expect(body).toMatchObject({ username: "Vigil", allowed_mentions: { parse: [] } });
    expect(body.embeds[0]).toMatchObject({
      title: "Sample monitor (test notification) is down",
      color: 0xc62828,
    });
    expect(body.embeds[0].fields).toContainEqual({
      name: "Status code",
      value: "503",
      inline: true,
    });
  });

  it("Microsoft Teams: posts an Adaptive Card to the workflow URL, its signature kept", async () => {
    const channel = await create({
      name: "teams",
      type: "teams",
      settings: { webhookUrl: teamsUrl(teams.current().url) },
    });
    expect(JSON.stringify(channel.settings)).not.toContain(TEAMS_SIG.slice(0, 8));
    expect(await runTest(channel.id)).toMatchObject({ ok: true });
    const request = teams.current().requests.at(-1);
    expect(request?.query.get("sig")).toBe(TEAMS_SIG);
    const card = bodyOf(request).attachments[0].content;
    expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    expect(card.body[0]).toMatchObject({
      type: "TextBlock",
      text: "🔴 Sample monitor (test notification) is down",
      color: "Attention",
    });
  });
});

describe("vendor failures", () => {
  it("logs what the vendor answered: a refused key, a chat not found, a wrong token", async () => {
    const wrongPd = await create({
      name: "pd wrong",
      type: "pagerduty",
      // Ours accepts 20–64 characters; PagerDuty's keys are 32.
      settings: { routingKey: `${ROUTING_KEY}abcd`, apiUrl: pagerDuty.current().url },
    });
    const pd = await runTest(wrongPd.id);
    expect(pd.ok).toBe(false);
    expect(pd.error).toMatch(/^PagerDuty answered 400: .*'routing_key' is invalid/);
    const otherKey = randomUUID();
    secrets.push(otherKey);
    const wrongOg = await create({
      name: "og wrong",
      type: "opsgenie",
      settings: { apiKey: otherKey, apiUrl: opsgenie.current().url },
    });
    expect((await runTest(wrongOg.id)).error).toMatch(
      /^Opsgenie answered 401: .*Could not authenticate/,
    );
    const wrongChat = await create({
      name: "tg wrong chat",
      type: "telegram",
      settings: { botToken: BOT_TOKEN, chatId: "@elsewhere", apiUrl: telegram.current().url },
    });
    expect((await runTest(wrongChat.id)).error).toMatch(/^Telegram answered 400: .*chat not found/);
    const wrongToken = `${randomBytes(24).toString("hex")}`;
    secrets.push(wrongToken);
    const wrongDiscord = await create({
      name: "dc wrong",
      type: "discord",
      settings: { webhookUrl: `${discord.current().url}/api/webhooks/123/${wrongToken}` },
    });
    const dc = await runTest(wrongDiscord.id);
    expect(dc.error).toMatch(/^Discord answered 401: .*Invalid Webhook Token/);
    const log = await read<{ data: { status: string; lastError: string }[] }>(
      await owner.get(`${base()}/${wrongDiscord.id}/deliveries`),
    );
    expect(log.data[0]).toMatchObject({ status: "failed", lastError: dc.error });
  });

  it("redacts secrets from errors that quote the URL, in the result and the log", async () => {
    const tg = await create({
      name: "tg echo",
      type: "telegram",
      settings: {
        botToken: BOT_TOKEN,
        chatId: CHAT_ID,
        apiUrl: `${telegram.current().url}/echo-fail`,
      },
    });
    const tgResult = await runTest(tg.id);
    expect(tgResult.error).toBe(
      'Telegram answered 500: {"error":"upstream failed for /echo-fail/bot[redacted]/sendMessage"}',
    );
    const dc = await create({
      name: "dc echo",
      type: "discord",
      settings: { webhookUrl: `${discord.current().url}/echo-fail/123/${DISCORD_TOKEN}` },
    });
    const dcResult = await runTest(dc.id);
    expect(dcResult.error).toContain("[redacted]");
    expect(dcResult.error).not.toContain(DISCORD_TOKEN);
    const teamsEcho = await create({
      name: "teams echo",
      type: "teams",
      settings: { webhookUrl: teamsUrl(`${teams.current().url}/echo-fail`) },
    });
    const teamsResult = await runTest(teamsEcho.id);
    expect(teamsResult.error).toMatch(/^Microsoft Teams answered 500: .*\[redacted\]/);
    expect(teamsResult.error).not.toContain(TEAMS_SIG);
    const log = await read<{ data: { lastError: string }[] }>(
      await owner.get(`${base()}/${tg.id}/deliveries`),
    );
    expect(log.data[0]?.lastError).toBe(tgResult.error);
  });

  it("refuses invalid settings, naming each field", async () => {
    const response = await owner.post(base(), {
      name: "bad pd",
      type: "pagerduty",
      settings: { routingKey: "short", region: "asia" },
    });
    expect(response.status).toBe(400);
    const problem = await read<{ errors: { field: string; message: string }[] }>(response);
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { field: "settings.routingKey", message: expect.stringContaining("integration key") },
        { field: "settings.region", message: "must be us or eu" },
      ]),
    );
    const tg = await read<{ errors: { field: string; message: string }[] }>(
      await owner.post(base(), {
        name: "bad tg",
        type: "telegram",
        settings: { chatId: "a chat" },
      }),
    );
    expect(tg.errors).toEqual(
      expect.arrayContaining([
        { field: "settings.botToken", message: "is required" },
        { field: "settings.chatId", message: expect.stringContaining("chat id") },
      ]),
    );
    const og = await read<{ errors: { field: string }[] }>(
      await owner.post(base(), {
        name: "bad og",
        type: "opsgenie",
        settings: { apiKey: OPSGENIE_KEY, apiUrl: "ftp://example.com" },
      }),
    );
    expect(og.errors).toEqual([
      { field: "settings.apiUrl", message: "must be an http or https URL" },
    ]);
  });

  it("keeps a secret when an edit leaves it out", async () => {
    const channel = await create({
      name: "tg edit",
      type: "telegram",
      settings: { botToken: BOT_TOKEN, chatId: "@wrongchat", apiUrl: telegram.current().url },
    });
    const response = await h.patch(owner.cookie, `${base()}/${channel.id}`, {
      settings: { chatId: CHAT_ID },
    });
    expect(response.status).toBe(200);
    expect(await runTest(channel.id)).toMatchObject({ ok: true });
  });

  it("asks for the secret again when an edit changes where the channel sends", async () => {
    const channel = await create({
      name: "og move",
      type: "opsgenie",
      settings: { apiKey: OPSGENIE_KEY, apiUrl: opsgenie.current().url },
    });
    const path = `${base()}/${channel.id}`;
    const before = await read<{ settings: unknown }>(await owner.get(path));
    for (const settings of [{ apiUrl: "https://attacker.example" }, { region: "eu" }]) {
      const refused = await h.patch(owner.cookie, path, { settings });
      expect(refused.status).toBe(400);
      const problem = await read<{ errors: { field: string; message: string }[] }>(refused);
      expect(problem.errors).toEqual([
        {
          field: "settings.apiKey",
          message: "give the secret again when changing where the channel sends",
        },
      ]);
    }
    const tg = await create({
      name: "tg move",
      type: "telegram",
      settings: { botToken: BOT_TOKEN, chatId: CHAT_ID, apiUrl: telegram.current().url },
    });
    const tgRefused = await h.patch(owner.cookie, `${base()}/${tg.id}`, {
      settings: { apiUrl: "https://attacker.example" },
    });
    expect(tgRefused.status).toBe(400);
    expect((await read<{ errors: { field: string }[] }>(tgRefused)).errors).toEqual([
      expect.objectContaining({ field: "settings.botToken" }),
    ]);
    expect(await read<{ settings: unknown }>(await owner.get(path))).toEqual(before);
    expect(await runTest(channel.id)).toMatchObject({ ok: true });

    // Only the name, or an unchanged apiUrl, keeps the stored secret.
    const renamed = await h.patch(owner.cookie, path, {
      name: "og renamed",
      settings: { apiUrl: opsgenie.current().url, region: "us" },
    });
    expect(renamed.status).toBe(200);
    const moved = await h.patch(owner.cookie, path, {
      settings: { apiUrl: `${opsgenie.current().url}/`, apiKey: OPSGENIE_KEY },
    });
    expect(moved.status).toBe(200);
    expect(await read<{ settings: { apiUrl: string } }>(moved)).toMatchObject({
      name: "og renamed",
      settings: { apiUrl: `${opsgenie.current().url}/` },
    });
    expect(await runTest(channel.id)).toMatchObject({ ok: true });
  });
});
