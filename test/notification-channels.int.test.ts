import { beforeAll, describe, expect, it } from "vitest";
import {
  type ChannelService,
  createChannel,
  listChannelTypes,
} from "../src/notifications/channels.js";
import {
  type ChannelBody,
  type ProblemBody,
  secretToken,
  useChannelService,
  useLocalReceivers,
} from "./helpers/channel-harness.js";
import type { Session } from "./helpers/roles.js";
import type { TestService } from "./helpers/test-service.js";

const receivers = useLocalReceivers();
const h = useChannelService(receivers);
const { secrets, read, patch, base, create } = h;
let service: TestService;
let channels: ChannelService;
let owner: Session;
let viewer: Session;
let outsider: Session;
let projectId: string;
let slackBase: string;
beforeAll(() => {
  ({ service, channels, owner, viewer, outsider, projectId } = h);
  ({ slackBase } = receivers);
});

describe("notification channels over HTTP", () => {
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
    const { monitors } = service.deps.meta.repos;
    const now = new Date().toISOString();
    for (const [id, name] of [
      ["mon_use1", "Checkout"],
      ["mon_use2", "Login"],
    ] as const) {
      await monitors.insert({
        id,
        projectId,
        name,
        status: "active",
        definition: {},
        channelIds: [channel.id],
        health: "pending",
        failureStreak: 0,
        lastCheckedAt: null,
        lastResultId: null,
        openIncidentId: null,
        createdBy: null,
        createdAt: now,
        updatedAt: now,
      });
    }
    const refused = await owner.delete(`${base()}/${channel.id}`);
    expect(refused.status).toBe(409);
    const problem = await read<ProblemBody>(refused);
    expect(problem.detail).toContain("'Checkout' (mon_use1)");
    expect(problem.detail).toContain("'Login' (mon_use2)");
    for (const id of ["mon_use1", "mon_use2"]) await monitors.delete(id);
    expect((await owner.delete(`${base()}/${channel.id}`)).status).toBe(204);
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
      ["pagerduty", "PagerDuty", true],
      ["teams", "Microsoft Teams", true],
      ["discord", "Discord", true],
      ["telegram", "Telegram", true],
      ["opsgenie", "Opsgenie", true],
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
});
