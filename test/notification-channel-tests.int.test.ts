import { beforeAll, describe, expect, it } from "vitest";
import {
  secretToken,
  subjectOf,
  useChannelService,
  useLocalReceivers,
} from "./helpers/channel-harness.js";
import type { Session } from "./helpers/roles.js";

const receivers = useLocalReceivers();
const h = useChannelService(receivers);
const { slackPosts, mails } = receivers;
const { events, secrets, read, base, create } = h;
let owner: Session;
let projectId: string;
let slackBase: string;
beforeAll(() => {
  ({ owner, projectId } = h);
  ({ slackBase } = receivers);
});

/** The test action: a sample sent now through the channel, its outcome a value and a log entry. */
describe("testing a notification channel", () => {
  it("tests a Slack channel: the sample arrives and the delivery is logged", async () => {
    const token = secretToken();
    secrets.push(token);
    const channel = await create({
      name: "slack test",
      type: "slack",
      settings: { webhookUrl: `${slackBase}/services/T1/B1/${token}` },
    });
    const response = await owner.post(`${base()}/${channel.id}/test`);
    expect(response.status).toBe(200);
    const result = await read<{ ok: boolean; deliveryId: string }>(response);
    expect(result).toEqual({ ok: true, deliveryId: expect.stringMatching(/^ntf_/) });
    const post = slackPosts.find((p) => p.path.endsWith(token));
    expect(post?.body.text).toContain("🔴 Sample monitor (test notification) is down");
    expect(post?.body.blocks.length).toBeGreaterThan(0);
    const log = await read<{ data: { id: string; status: string; event: string }[] }>(
      await owner.get(`${base()}/${channel.id}/deliveries`),
    );
    expect(log.data[0]).toMatchObject({
      id: result.deliveryId,
      status: "sent",
      event: "channel.test",
      attempts: 1,
    });
  });

  it("reports a failing test as a value, without the secret URL", async () => {
    const token = secretToken();
    secrets.push(token);
    const channel = await create({
      name: "slack failing",
      type: "slack",
      settings: { webhookUrl: `${slackBase}/fail/${token}` },
    });
    const response = await owner.post(`${base()}/${channel.id}/test`);
    expect(response.status).toBe(200);
    const result = await read<{ ok: boolean; error: string }>(response);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^Slack answered 500: internal_error x+$/);
    expect(result.error.length).toBeLessThan(240);
    const log = await read<{ data: { status: string; lastError: string }[] }>(
      await owner.get(`${base()}/${channel.id}/deliveries`),
    );
    expect(log.data[0]).toMatchObject({ status: "failed", lastError: result.error });
  });

  it("tests an email channel through SMTP", async () => {
    const channel = await create({
      name: "email test",
      type: "email",
      settings: { to: ["first@example.com", "second@example.com"] },
    });
    const before = mails.length;
    const result = await read<{ ok: boolean }>(await owner.post(`${base()}/${channel.id}/test`));
    expect(result).toMatchObject({ ok: true });
    const mail = mails[before];
    expect(mail?.to).toEqual(["first@example.com", "second@example.com"]);
    expect(subjectOf(mail?.raw ?? "")).toBe("[Vigil] Sample monitor (test notification) is down");
    expect(mail?.raw).toMatch(/^From: Vigil <alerts@vigil\.test>/m);
  });

  it("tests a webhook channel by publishing on the event bus", async () => {
    const channel = await create({ name: "hook test", type: "webhook" });
    const result = await read<{ ok: boolean; deliveryId: string }>(
      await owner.post(`${base()}/${channel.id}/test`),
    );
    expect(result.ok).toBe(true);
    const event = events.find((e) => e.id === result.deliveryId);
    expect(event).toMatchObject({
      type: "monitor.down",
      projectId,
      data: { projectId },
      sample: true,
    });
  });
});
