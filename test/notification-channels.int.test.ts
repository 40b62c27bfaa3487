import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../src/auth/users.js";
import type { AppDeps } from "../src/composition/app-deps.js";
import { loadSecretKey } from "../src/config/secret-key.js";
import type { DomainDeps } from "../src/context.js";
import type { DomainEvent } from "../src/events/event-bus.js";
import { createSecretBox } from "../src/lib/secret-box.js";
import { openMetaDatabase } from "../src/meta/database.js";
import type { NewNotificationDelivery } from "../src/meta/repositories/notification-deliveries.js";
import { monitorEventPayload } from "../src/monitors/monitor-webhook-events.js";
import { createSmtpMailer } from "../src/notifications/channels/mailer.js";
import {
  type ChannelService,
  createChannel,
  listChannelTypes,
} from "../src/notifications/channels.js";
import { createNotificationDispatcher } from "../src/notifications/dispatcher.js";
import type { MonitorNotification } from "../src/notifications/notification-payloads.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

const OWNER = { email: "channels-owner@example.com", password: "correct horse battery" };

// A local Slack: records each JSON body; paths containing "/fail" answer 500.
interface SlackPost {
  path: string;
  body: { text: string; blocks: unknown[] };
}
const slackPosts: SlackPost[] = [];
let slack: Server;
let slackBase: string;

// A local SMTP server without TLS or auth.
interface Mail {
  to: string[];
  raw: string;
}
const mails: Mail[] = [];
let smtp: SMTPServer;
let smtpUrl: string;
/** An SMTP URL nothing listens on. */
let deadSmtpUrl: string;

const agent = new Agent();
const events: DomainEvent[] = [];

function listen(server: Server | SMTPServer): Promise<number> {
  return new Promise((resolve) => {
    const net = server instanceof SMTPServer ? server.server : server;
    server.listen(0, "127.0.0.1", () => resolve((net.address() as AddressInfo).port));
  });
}

const secretToken = () => randomBytes(12).toString("hex");
const subjectOf = (raw: string) =>
  /^Subject: (.*)$/m.exec(raw.replace(/\r\n[ \t]+/g, " "))?.[1]?.trim() ?? "";

beforeAll(async () => {
  slack = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on("end", () => {
      slackPosts.push({ path: request.url ?? "", body: JSON.parse(text) as SlackPost["body"] });
      if (request.url?.includes("/fail")) {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end(`internal_error ${"x".repeat(400)}`);
      } else {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("ok");
      }
    });
  });
  slackBase = `http://127.0.0.1:${await listen(slack)}`;

  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString();
      });
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  smtpUrl = `smtp://127.0.0.1:${await listen(smtp)}?ignoreTLS=true`;
  const dead = createServer();
  const deadPort = await listen(dead);
  await new Promise((resolve) => dead.close(resolve));
  deadSmtpUrl = `smtp://127.0.0.1:${deadPort}?ignoreTLS=true`;
});
afterAll(async () => {
  await new Promise((resolve) => slack?.close(resolve));
  await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
  await agent.close();
});

/** The channel service as the composition root would build it, with the test's local servers. */
function channelServiceFor(deps: AppDeps, smtpOverride?: string): ChannelService {
  return {
    secretBox: createSecretBox(loadSecretKey(deps.config)),
    channelDeps: {
      eventBus: deps.channels.channelDeps.eventBus,
      dispatcher: agent,
      mailer: createSmtpMailer({ ...deps.config.smtp, url: smtpOverride ?? deps.config.smtp.url }),
      allowPrivateTargets: deps.config.monitors.allowPrivateTargets,
    },
  };
}

interface ChannelBody {
  id: string;
  name: string;
  type: string;
  settings: Record<string, unknown>;
}
interface ProblemBody {
  status: number;
  detail: string;
  errors?: { field: string; message: string }[];
}

describe("notification channels over HTTP", () => {
  const dir = makeTempDir();
  let service: TestService;
  let channels: ChannelService;
  let owner: Awaited<ReturnType<typeof signIn>>;
  let viewer: Awaited<ReturnType<typeof signIn>>;
  let outsider: Awaited<ReturnType<typeof signIn>>;
  let projectId: string;
  /** Every response body the tests saw, to check no secret ever left the server. */
  const bodies: string[] = [];
  const secrets: string[] = [];

  const patch = (cookie: string, path: string, body: unknown) =>
    service.fetch(path, {
      method: "PATCH",
      headers: { cookie, origin: service.url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const read = async <T>(response: Response): Promise<T> => {
    const text = await response.text();
    bodies.push(text);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const base = () => `/api/projects/${projectId}/channels`;
  const create = async (body: object) => {
    const response = await owner.post(base(), body);
    const json = await read<ChannelBody & ProblemBody>(response);
    if (response.status !== 201)
      throw new Error(`create: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
      VIGIL_SMTP_URL: smtpUrl,
      VIGIL_SMTP_FROM: "Vigil <alerts@vigil.test>",
      // The local Slack stand-in listens on loopback.
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    });
    channels = service.deps.channels;
    channels.channelDeps.eventBus.subscribe((event) => {
      events.push(event);
    });
    owner = await signIn(service, OWNER.email, OWNER.password);
    const projects = await read<{ data: { id: string; orgId: string }[] }>(
      await owner.get("/api/projects"),
    );
    const project = projects.data[0];
    if (!project) throw new Error("no project");
    projectId = project.id;
    const system = { deps: service.deps.domain, actor: { kind: "system" as const } };
    await createUser({
      ctx: system,
      input: {
        email: "viewer@example.com",
        password: "viewer password",
        orgId: project.orgId,
        role: "viewer",
      },
    });
    await createUser({
      ctx: system,
      input: { email: "outsider@example.com", password: "outsider password", newOrg: "Other" },
    });
    viewer = await signIn(service, "viewer@example.com", "viewer password");
    outsider = await signIn(service, "outsider@example.com", "outsider password");
  });
  afterAll(async () => {
    // No response of the whole suite carried a secret.
    for (const secret of secrets) {
      for (const body of bodies) expect(body).not.toContain(secret);
    }
    await service?.stop();
    dir.remove();
  });

  it("creates, reads, updates and deletes a Slack channel, showing its URL only masked", async () => {
    const token = secretToken();
    secrets.push(token);
    const url = `${slackBase}/services/T0/B0/${token}`;
    const created = await create({
      name: "ops slack",
      type: "slack",
      settings: { webhookUrl: url },
    });
    expect(created).toMatchObject({
      name: "ops slack",
      type: "slack",
      settings: { webhookUrl: `${slackBase}/…/${token.slice(-4)}` },
    });
    expect(created.id).toMatch(/^chn_/);
    // Stored sealed, not as the URL.
    const stored = await service.deps.meta.repos.notificationChannels.findById(created.id);
    expect(stored?.secret).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain(token);

    const list = await read<{ data: ChannelBody[]; pagination: { total: number } }>(
      await owner.get(base()),
    );
    expect(list.data.map((c) => c.id)).toContain(created.id);
    const one = await read<ChannelBody>(await owner.get(`${base()}/${created.id}`));
    expect(one).toEqual(created);

    // Renaming keeps the secret; a new URL replaces it.
    const renamed = await read<ChannelBody>(
      await patch(owner.cookie, `${base()}/${created.id}`, { name: "alerts", type: "slack" }),
    );
    expect(renamed).toMatchObject({ name: "alerts", settings: created.settings });
    const token2 = secretToken();
    secrets.push(token2);
    const moved = await read<ChannelBody>(
      await patch(owner.cookie, `${base()}/${created.id}`, {
        settings: { webhookUrl: `${slackBase}/services/T0/B1/${token2}` },
      }),
    );
    expect(moved.settings).toEqual({ webhookUrl: `${slackBase}/…/${token2.slice(-4)}` });

    const deleted = await owner.delete(`${base()}/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await owner.get(`${base()}/${created.id}`)).status).toBe(404);
    expect((await owner.delete(`${base()}/${created.id}`)).status).toBe(404);
  });

  it("documents the routes in the OpenAPI document", async () => {
    const response = await service.fetch("/openapi.json");
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const path = "/api/projects/{projectId}/channels/{channelId}";
    expect(Object.keys(document.paths[path] ?? {}).sort()).toEqual(["delete", "get", "patch"]);
    expect(Object.keys(document.paths[`${path}/test`] ?? {})).toEqual(["post"]);
    expect(Object.keys(document.paths[`${path}/deliveries`] ?? {})).toEqual(["get"]);
    expect(Object.keys(document.paths[path]?.delete?.responses ?? {}).sort()).toEqual([
      "204",
      "400",
      "401",
      "403",
      "404",
      "409",
      "414",
      "500",
    ]);
    for (const id of ["NotificationChannel", "NotificationDelivery", "CreateChannelInput"]) {
      expect(document.components.schemas).toHaveProperty(id);
    }
  });

  it("creates webhook and email channels", async () => {
    const hook = await create({ name: "hooks", type: "webhook" });
    expect(hook.settings).toEqual({});
    const mail = await create({
      name: "mail",
      type: "email",
      settings: { to: [" ops@example.com", "oncall@example.com"] },
    });
    expect(mail.settings).toEqual({ to: ["ops@example.com", "oncall@example.com"] });
  });

  it("answers 400 naming the field for invalid input", async () => {
    const cases: [object, string][] = [
      [{ name: "s1", type: "slack", settings: {} }, "settings.webhookUrl"],
      [
        { name: "s2", type: "slack", settings: { webhookUrl: "ftp://example.com/x" } },
        "settings.webhookUrl",
      ],
      [{ name: "s3", type: "slack", settings: { webhookUrl: "not a url" } }, "settings.webhookUrl"],
      [{ name: "e1", type: "email", settings: { to: [] } }, "settings.to"],
      [
        { name: "e2", type: "email", settings: { to: ["ops@example.com", "nope"] } },
        "settings.to.1",
      ],
      [{ name: "e3", type: "email", settings: {} }, "settings.to"],
      [
        { name: "e4", type: "email", settings: { to: Array(21).fill("a@example.com") } },
        "settings.to",
      ],
      [{ name: "w1", type: "webhook", settings: { url: "https://x.example" } }, "settings.url"],
      [{ name: "x1", type: "sms", settings: {} }, "type"],
      [{ name: "", type: "webhook" }, "name"],
      [{ name: "x2", type: "webhook", extra: true }, "extra"],
    ];
    for (const [body, field] of cases) {
      const response = await owner.post(base(), body);
      const problem = await read<ProblemBody>(response);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        problem.errors?.map((e) => e.field),
        JSON.stringify(problem),
      ).toContain(field);
    }
    const missing = await read<ProblemBody>(
      await owner.post(base(), { name: "s4", type: "slack", settings: {} }),
    );
    expect(missing.errors).toEqual([{ field: "settings.webhookUrl", message: "is required" }]);

    const hook = await create({ name: "fixed type", type: "webhook" });
    const retype = await patch(owner.cookie, `${base()}/${hook.id}`, { type: "slack" });
    expect(retype.status).toBe(400);
    expect((await read<ProblemBody>(retype)).errors?.[0]?.field).toBe("type");
    const badEmail = await patch(owner.cookie, `${base()}/${hook.id}`, { settings: { to: [] } });
    expect((await read<ProblemBody>(badEmail)).errors?.[0]?.field).toBe("settings.to");
  });

  it("answers 409 for a second channel of the same name", async () => {
    await create({ name: "dup", type: "webhook" });
    const again = await owner.post(base(), { name: "dup", type: "webhook" });
    expect(again.status).toBe(409);
    const other = await create({ name: "dup2", type: "webhook" });
    const rename = await patch(owner.cookie, `${base()}/${other.id}`, { name: "dup" });
    expect(rename.status).toBe(409);
  });

  it("lets a viewer read but not change, and hides the project from another organization", async () => {
    const channel = await create({ name: "guarded", type: "webhook" });
    const path = `${base()}/${channel.id}`;
    expect((await viewer.get(base())).status).toBe(200);
    expect((await viewer.get(path)).status).toBe(200);
    expect((await viewer.get(`${path}/deliveries`)).status).toBe(200);
    for (const response of [
      await viewer.post(base(), { name: "v", type: "webhook" }),
      await patch(viewer.cookie, path, { name: "v" }),
      await viewer.delete(path),
      await viewer.post(`${path}/test`),
    ]) {
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
    }
    for (const response of [
      await outsider.get(base()),
      await outsider.get(path),
      await outsider.get(`${path}/deliveries`),
      await outsider.post(base(), { name: "o", type: "webhook" }),
      await patch(outsider.cookie, path, { name: "o" }),
      await outsider.delete(path),
      await outsider.post(`${path}/test`),
    ]) {
      expect(response.status).toBe(404);
    }
    // Unknown channel ids and unauthenticated requests.
    expect((await owner.get(`${base()}/chn_missing`)).status).toBe(404);
    expect((await service.fetch(base())).status).toBe(401);
    expect((await viewer.get(path)).status).toBe(200);
  });

  it("refuses to delete a channel that monitors use, naming them", async () => {
    const channel = await create({ name: "in use", type: "webhook" });
    // Monitors are written directly: this suite tests channels, not the monitor API.
    const { db } = openMetaDatabase({ dataDir: dir.path });
    try {
      const now = new Date().toISOString();
      for (const [id, name] of [
        ["mon_use1", "Checkout"],
        ["mon_use2", "Login"],
      ] as const) {
        await db
          .insertInto("monitors")
          .values({
            id,
            project_id: projectId,
            name,
            status: "active",
            definition: "{}",
            health: "pending",
            failure_streak: 0,
            last_checked_at: null,
            last_result_id: null,
            open_incident_id: null,
            created_by: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await db
          .insertInto("monitor_channels")
          .values({ monitor_id: id, channel_id: channel.id })
          .execute();
      }
      const refused = await owner.delete(`${base()}/${channel.id}`);
      expect(refused.status).toBe(409);
      const problem = await read<ProblemBody>(refused);
      expect(problem.detail).toContain("'Checkout' (mon_use1)");
      expect(problem.detail).toContain("'Login' (mon_use2)");
      await db.deleteFrom("monitor_channels").where("channel_id", "=", channel.id).execute();
    } finally {
      await db.destroy();
    }
    expect((await owner.delete(`${base()}/${channel.id}`)).status).toBe(204);
  });

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

  it("refuses email channels when SMTP is not configured", async () => {
    const noSmtp: ChannelService = {
      ...channels,
      channelDeps: { ...channels.channelDeps, mailer: undefined },
    };
    const ctx = {
      deps: { ...service.deps.domain, channels: noSmtp },
      actor: { kind: "system" as const },
    };
    await expect(
      createChannel({
        ctx,
        projectId,
        input: { name: "no smtp", type: "email", settings: { to: ["a@example.com"] } },
      }),
    ).rejects.toMatchObject({
      code: "invalid_input",
      issues: [{ field: "type", message: "email channels need SMTP: set VIGIL_SMTP_URL" }],
    });
  });

  it("lists the channel types with their settings' JSON Schema and whether they can be created", async () => {
    interface TypeBody {
      type: string;
      label: string;
      description: string;
      available: boolean;
      unavailableReason: string | null;
      settings: { properties: Record<string, { title?: string }>; required?: string[] };
      secretSettings: string[];
    }
    const response = await owner.get("/api/channel-types");
    expect(response.status).toBe(200);
    const { data } = await read<{ data: TypeBody[] }>(response);
    expect(data.map((t) => [t.type, t.label, t.available])).toEqual([
      ["webhook", "Webhook", true],
      ["slack", "Slack", true],
      ["email", "Email", true],
    ]);
    const [webhook, slackType, email] = data;
    expect(webhook?.settings.properties).toEqual({});
    expect(slackType?.settings).toMatchObject({
      type: "object",
      properties: { webhookUrl: { type: "string", format: "uri", title: "Webhook URL" } },
      required: ["webhookUrl"],
      additionalProperties: false,
    });
    expect(slackType?.secretSettings).toEqual(["webhookUrl"]);
    expect(email?.settings).toMatchObject({
      properties: { to: { type: "array", items: { type: "string" }, title: "Recipients" } },
      required: ["to"],
    });
    expect(email?.secretSettings).toEqual([]);
    for (const type of data) expect(type.description.length).toBeGreaterThan(10);
    // Without SMTP, email is listed as unavailable, with the reason creation would give.
    const noSmtp: ChannelService = {
      ...channels,
      channelDeps: { ...channels.channelDeps, mailer: undefined },
    };
    const noSmtpCtx = {
      deps: { ...service.deps.domain, channels: noSmtp },
      actor: { kind: "system" as const },
    };
    expect(listChannelTypes({ ctx: noSmtpCtx }).find((t) => t.type === "email")).toMatchObject({
      available: false,
      unavailableReason: "email channels need SMTP: set VIGIL_SMTP_URL",
    });
    const asViewer = await viewer.get("/api/channel-types");
    expect(asViewer.status).toBe(200);
    await asViewer.arrayBuffer();
    const anonymous = await service.fetch("/api/channel-types");
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();
  });

  describe("the dispatcher", () => {
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
      const refusing = channelServiceFor(service.deps, deadSmtpUrl);
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
});
