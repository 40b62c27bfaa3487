import { Writable } from "node:stream";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import type { NewNotificationDelivery } from "../src/meta/repositories/notification-deliveries.js";
import { monitorEventPayload } from "../src/monitors/monitor-webhook-events.js";
import { type ChannelService, createChannel } from "../src/notifications/channels.js";
import { createNotificationDispatcher } from "../src/notifications/dispatcher.js";
import type { MonitorNotification } from "../src/notifications/notification-payloads.js";
import {
  channelServiceFor,
  secretToken,
  subjectOf,
  useChannelService,
  useLocalReceivers,
} from "./helpers/channel-harness.js";
import type { TestService } from "./helpers/test-service.js";

const receivers = useLocalReceivers();
const h = useChannelService(receivers);
const { slackPosts, mails, agent } = receivers;
const { events, secrets } = h;
let service: TestService;
let channels: ChannelService;
let projectId: string;
let slackBase: string;
let deadSmtpUrl: string;
beforeAll(async () => {
  ({ service, channels, projectId } = h);
  ({ slackBase, deadSmtpUrl } = receivers);
  // The tests run their own dispatchers on a fake clock; the service's would race them for the rows.
  await service.deps.notifier.stop();
});

describe("the notification dispatcher", () => {
  let nowMs = Date.UTC(2026, 5, 1, 12, 0, 0);
  const clock = { now: () => new Date(nowMs) };
  const logLines: string[] = [];
  const logger = pino(
    { level: "info" },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  );
  const down = (): MonitorNotification => ({
    event: "monitor.down",
    projectId,
    monitor: { id: "mon_x", name: "Checkout", type: "api", url: "https://shop.example/pay" },
    incident: {
      id: "inc_disp",
      startedAt: new Date(nowMs).toISOString(),
      resolvedAt: null,
      durationMs: null,
    },
    check: {
      resultId: "run_1",
      startedAt: new Date(nowMs).toISOString(),
      failedStep: "pay",
      reason: "status_code equals 200: got 500",
      statusCode: 500,
    },
  });
  const recovered = (): MonitorNotification => ({
    ...down(),
    event: "monitor.recovered",
    incident: {
      id: "inc_disp",
      startedAt: new Date(nowMs - 252_000).toISOString(),
      resolvedAt: new Date(nowMs).toISOString(),
      durationMs: 252_000,
    },
  });
  let seq = 0;
  const enqueue = async (channelId: string, payload: MonitorNotification) => {
    const row: NewNotificationDelivery = {
      id: `ntf_disp${String(++seq).padStart(4, "0")}`,
      projectId,
      channelId,
      monitorId: null,
      incidentId: payload.incident.id,
      event: payload.event,
      payload,
      createdAt: new Date(nowMs).toISOString(),
    };
    await service.deps.meta.transaction(({ repos }) =>
      repos.notificationDeliveries.insertMany([row]),
    );
    return row.id;
  };
  const dispatcherFor = (svc: ChannelService = channels, intervalMs?: number) =>
    createNotificationDispatcher({
      meta: service.deps.meta,
      clock,
      logger,
      ...svc,
      ...(intervalMs === undefined ? {} : { intervalMs }),
    });
  const find = (id: string) => service.deps.meta.repos.notificationDeliveries.findById(id);
  const system = () => ({ deps: service.deps.domain, actor: { kind: "system" as const } });

  it("sends Slack, email and webhook notifications and records them as sent", async () => {
    const token = secretToken();
    secrets.push(token);
    const slackChannel = await createChannel({
      ctx: system(),
      projectId,
      input: {
        name: "d-slack",
        type: "slack",
        settings: { webhookUrl: `${slackBase}/services/D/D/${token}` },
      },
    });
    const mailChannel = await createChannel({
      ctx: system(),
      projectId,
      input: { name: "d-mail", type: "email", settings: { to: ["oncall@example.com"] } },
    });
    const hookChannel = await createChannel({
      ctx: system(),
      projectId,
      input: { name: "d-hook", type: "webhook" },
    });
    const ids = [
      await enqueue(slackChannel.id, down()),
      await enqueue(slackChannel.id, recovered()),
      await enqueue(mailChannel.id, down()),
      await enqueue(hookChannel.id, down()),
    ];
    const mailsBefore = mails.length;
    const dispatcher = dispatcherFor();
    expect(await dispatcher.deliverDue()).toBe(4);
    expect(await dispatcher.deliverDue()).toBe(0);
    for (const id of ids) {
      expect(await find(id)).toMatchObject({
        status: "sent",
        attempts: 1,
        sentAt: clock.now().toISOString(),
        nextAttemptAt: null,
      });
    }
    const texts = slackPosts.filter((p) => p.path.endsWith(token)).map((p) => p.body.text);
    expect(texts.map((t) => t.split("\n")[0]).sort()).toEqual([
      "✅ Checkout recovered after 4m 12s",
      "🔴 Checkout is down",
    ]);
    expect(texts.join("\n")).toContain("Reason: status_code equals 200: got 500");
    expect(texts.join("\n")).toContain("Failed step: pay");
    expect(texts.join("\n")).toContain("Status code: 500");
    const mail = mails[mailsBefore];
    expect(mail?.to).toEqual(["oncall@example.com"]);
    expect(subjectOf(mail?.raw ?? "")).toBe("[Vigil] Checkout is down");
    // The event id is the incident's and the event's, whichever delivery carried it.
    const eventId = `${down().incident.id}:monitor.down`;
    const event = events.find((e) => e.id === eventId);
    expect(event).toEqual({
      id: eventId,
      type: "monitor.down",
      projectId,
      data: monitorEventPayload(down()),
      occurredAt: clock.now().toISOString(),
    });
  });

  it("retries a failing channel after 30 s and 2 min, then records it failed, never throwing", async () => {
    const token = secretToken();
    secrets.push(token);
    const failing = await createChannel({
      ctx: system(),
      projectId,
      input: {
        name: "d-failing",
        type: "slack",
        settings: { webhookUrl: `${slackBase}/fail/${token}` },
      },
    });
    const mail = await createChannel({
      ctx: system(),
      projectId,
      input: { name: "d-refused", type: "email", settings: { to: ["x@example.com"] } },
    });
    const slackId = await enqueue(failing.id, down());
    const mailId = await enqueue(mail.id, down());
    // The same channels, but the mail server refuses connections.
    const refusing = channelServiceFor(service.deps, agent, deadSmtpUrl);
    const dispatcher = dispatcherFor({ ...refusing, secretBox: channels.secretBox });
    const start = nowMs;
    const iso = (offset: number) => new Date(start + offset).toISOString();

    expect(await dispatcher.deliverDue()).toBe(2);
    expect(await find(slackId)).toMatchObject({
      status: "pending",
      attempts: 1,
      nextAttemptAt: iso(30_000),
    });
    nowMs = start + 29_000;
    expect(await dispatcher.deliverDue()).toBe(0);
    nowMs = start + 30_000;
    expect(await dispatcher.deliverDue()).toBe(2);
    expect(await find(slackId)).toMatchObject({
      status: "pending",
      attempts: 2,
      nextAttemptAt: iso(150_000),
    });
    nowMs = start + 149_000;
    expect(await dispatcher.deliverDue()).toBe(0);
    nowMs = start + 150_000;
    expect(await dispatcher.deliverDue()).toBe(2);
    const slackFinal = await find(slackId);
    expect(slackFinal).toMatchObject({ status: "failed", attempts: 3, nextAttemptAt: null });
    expect(slackFinal?.lastError).toMatch(/^Slack answered 500: internal_error x+$/);
    const mailFinal = await find(mailId);
    expect(mailFinal).toMatchObject({ status: "failed", attempts: 3, nextAttemptAt: null });
    expect(mailFinal?.lastError).toMatch(/SMTP delivery failed: .*ECONNREFUSED/);
    nowMs = start + 3_600_000;
    expect(await dispatcher.deliverDue()).toBe(0);
    // Each failure was logged, without the secret URL.
    const failures = logLines.filter((line) => line.includes(slackId));
    expect(failures).toHaveLength(3);
    expect(failures.join("")).toContain("Slack answered 500");
    expect(logLines.join("")).not.toContain(token);
  });

  it("sends what a previous run left pending or claimed, after a restart", async () => {
    const channel = await createChannel({
      ctx: system(),
      projectId,
      input: { name: "d-restart", type: "webhook" },
    });
    const left = await enqueue(channel.id, down());
    const crashed = await enqueue(channel.id, recovered());
    // A previous process claimed this one and died mid-send: its lease runs out, then it is due.
    const claimed = await service.deps.meta.repos.notificationDeliveries.claimDue(
      clock.now().toISOString(),
      100,
      new Date(nowMs + 60_000).toISOString(),
    );
    expect(claimed.map((d) => d.id)).toEqual([left, crashed]);
    await service.deps.meta.repos.notificationDeliveries.markFailed(left, {
      error: "previous run",
      attempts: 1,
      nextAttemptAt: clock.now().toISOString(),
      heldUntil: claimed[0]?.nextAttemptAt ?? "",
    });
    nowMs += 61_000;

    const dispatcher = dispatcherFor(channels, 60_000);
    dispatcher.start();
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const states = await Promise.all([find(left), find(crashed)]);
      if (states.every((d) => d?.status === "sent")) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await find(left)).toMatchObject({ status: "sent", attempts: 2 });
    expect(await find(crashed)).toMatchObject({ status: "sent", attempts: 1 });

    // kick() runs soon after new deliveries, long before the 60 s interval.
    const kicked = await enqueue(channel.id, down());
    dispatcher.kick();
    const until = Date.now() + 5_000;
    while (Date.now() < until && (await find(kicked))?.status !== "sent") {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await find(kicked))?.status).toBe("sent");
    await dispatcher.stop();
    // Stopped: kick does nothing.
    const afterStop = await enqueue(channel.id, down());
    dispatcher.kick();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await find(afterStop))?.status).toBe("pending");
    expect(await dispatcherFor().deliverDue()).toBe(1);
  });
});
