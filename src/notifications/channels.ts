import { z } from "zod";
import type { Ctx } from "../context.js";
import { nowIso } from "../context.js";
import { ConflictError, InvalidInputError } from "../lib/domain-errors.js";
import type { SecretBox } from "../lib/secret-box.js";
import { parseInput } from "../lib/validation.js";
import type { Repositories } from "../meta/meta-store.js";
import type { NotificationChannelRecord } from "../meta/repositories/notification-channels.js";
import {
  DELIVERY_STATUSES,
  type NotificationDelivery,
} from "../meta/repositories/notification-deliveries.js";
import { findInProject, requireFreeName } from "../projects/project-records.js";
import { requireProject } from "../projects/projects.js";
import type { ChannelDeps, ChannelTypeSpec } from "./channels/channel-type.js";
import {
  CHANNEL_TYPE_NAMES,
  CHANNEL_TYPES,
  ChannelType,
  channelTypeSpec,
  errorMessage,
  loadChannelSettings,
  parseChannelSettings,
  requirePublicUrls,
  sealSecret,
  sendThroughChannel,
} from "./channels/registry.js";
import type { MonitorNotification } from "./model.js";

/** Deliveries a channel's log shows (spec: the last 50 records). */
export const DELIVERY_LOG_LIMIT = 50;
/** The event recorded for deliveries made by the test action. */
export const TEST_DELIVERY_EVENT = "channel.test";

const SETTINGS_DESCRIPTION =
  "Per type: webhook `{}`; slack `{ webhookUrl }` (http/https, stored encrypted, shown masked); " +
  "email `{ to: [1–20 addresses] }` (needs SMTP on the server)";

const ChannelName = z.string().trim().min(1).max(100);
const Settings = z.record(z.string(), z.unknown());

export const CreateChannelInput = z
  .object({
    name: ChannelName,
    type: ChannelType,
    settings: Settings.default({}).describe(SETTINGS_DESCRIPTION),
  })
  .strict()
  .meta({ id: "CreateChannelInput" });
export type CreateChannelInput = z.input<typeof CreateChannelInput>;

export const UpdateChannelInput = z
  .object({
    name: ChannelName.optional(),
    /** Accepted only when unchanged: a channel's type is fixed at creation. */
    type: z
      .string()
      .optional()
      .describe("A channel's type cannot change; only its own is accepted"),
    settings: Settings.optional().describe(
      `Merged over the current settings, so a secret need not be sent again. ${SETTINGS_DESCRIPTION}`,
    ),
  })
  .strict()
  .meta({ id: "UpdateChannelInput" });
export type UpdateChannelInput = z.input<typeof UpdateChannelInput>;

/** A channel as the API shows it: secret settings masked, never returned. */
export const ChannelView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    type: z.string(),
    settings: Settings.describe("The channel's settings with secrets masked"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "NotificationChannel" });
export type ChannelView = z.infer<typeof ChannelView>;

export const DeliveryView = z
  .object({
    id: z.string(),
    channelId: z.string(),
    monitorId: z.string().nullable(),
    ruleId: z.string().nullable().describe("The alert rule that notified (alert.* events)"),
    incidentId: z.string().nullable(),
    event: z
      .string()
      .describe(
        `monitor.down, monitor.recovered, alert.fired, alert.resolved, alert.renotified, or ${TEST_DELIVERY_EVENT}`,
      ),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    sentAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "NotificationDelivery" });
export type DeliveryView = z.infer<typeof DeliveryView>;

export const ChannelTestResult = z
  .object({
    ok: z.boolean(),
    error: z.string().optional().describe("Why the test notification was not delivered"),
    deliveryId: z.string().describe("The delivery recorded for this test"),
  })
  .meta({ id: "ChannelTestResult" });
export type ChannelTestResult = z.infer<typeof ChannelTestResult>;

export const ChannelTypeView = z
  .object({
    type: z.string(),
    label: z.string(),
    description: z.string(),
    available: z.boolean().describe("Whether channels of this type can be created on this server"),
    unavailableReason: z.string().nullable().describe("Why not, when they cannot"),
    settings: z
      .record(z.string(), z.unknown())
      .describe("JSON Schema of the type's `settings` object, with a title per setting"),
    secretSettings: z
      .array(z.string())
      .describe("Settings stored encrypted and only ever shown masked"),
  })
  .meta({ id: "NotificationChannelType" });
export type ChannelTypeView = z.infer<typeof ChannelTypeView>;

/**
 * What the channel verbs (and the dispatcher) need beyond the domain deps: the box that seals
 * secret settings, and what channels send with. Built once by the composition root.
 */
export interface ChannelService {
  secretBox: SecretBox;
  channelDeps: ChannelDeps;
}

type ProjectArgs = { ctx: Ctx; projectId: string };
type ChannelArgs = ProjectArgs & { channelId: string };

export const toDeliveryView = (d: NotificationDelivery): DeliveryView => ({
  id: d.id,
  channelId: d.channelId,
  monitorId: d.monitorId,
  ruleId: d.ruleId ?? null,
  incidentId: d.incidentId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  lastError: d.lastError,
  nextAttemptAt: d.nextAttemptAt,
  sentAt: d.sentAt,
  createdAt: d.createdAt,
});

/** What a test sends: clearly a sample, shaped like a real outage alert. */
export function sampleNotification(projectId: string, now: Date): MonitorNotification {
  const at = now.toISOString();
  return {
    event: "monitor.down",
    projectId,
    monitor: {
      id: "mon_sample",
      name: "Sample monitor (test notification)",
      type: "api",
      url: "https://example.com/health",
    },
    incident: { id: "inc_sample", startedAt: at, resolvedAt: null, durationMs: null },
    check: {
      resultId: "run_sample",
      startedAt: at,
      failedStep: "health",
      reason: "This is a test notification from Vigil; no monitor is down",
      statusCode: 503,
    },
  };
}

function specOf(channel: NotificationChannelRecord): ChannelTypeSpec {
  const spec = channelTypeSpec(channel.type);
  if (!spec) throw new InvalidInputError(`Unknown channel type '${channel.type}'`);
  return spec;
}

function toView(service: ChannelService, channel: NotificationChannelRecord): ChannelView {
  const spec = specOf(channel);
  let settings: Record<string, unknown>;
  try {
    settings = spec.describe(loadChannelSettings(spec, channel, service.secretBox));
  } catch {
    // A secret sealed under a lost key: show what is known rather than failing the whole list.
    const unreadable = Object.keys(spec.secret.shape).map((key) => [key, "[unreadable]"]);
    settings = { ...channel.config, ...Object.fromEntries(unreadable) };
  }
  return {
    id: channel.id,
    projectId: channel.projectId,
    name: channel.name,
    type: channel.type,
    settings,
    createdAt: channel.createdAt,
    updatedAt: channel.updatedAt,
  };
}

/** The project's channel; one of another project is reported as not found. */
const requireChannel = (repos: Repositories, projectId: string, channelId: string) =>
  findInProject(repos.notificationChannels, projectId, "Notification channel", channelId);

/**
 * Every channel type of the registry with the JSON Schema of its settings, so a client can build
 * the form of each type, and whether this server can create it (email needs SMTP).
 */
export function listChannelTypes(service: ChannelService): ChannelTypeView[] {
  return CHANNEL_TYPE_NAMES.map((type) => {
    const spec: ChannelTypeSpec = CHANNEL_TYPES[type];
    const unavailable = spec.unavailable?.(service.channelDeps);
    const settings = z.object({ ...spec.config.shape, ...spec.secret.shape }).strict();
    const { $schema: _, ...schema } = z.toJSONSchema(settings, { io: "input" });
    return {
      type,
      label: spec.label,
      description: spec.description,
      available: unavailable === undefined,
      unavailableReason: unavailable ?? null,
      settings: schema,
      secretSettings: Object.keys(spec.secret.shape),
    };
  });
}

/** Creates a channel (members and above); settings are validated by the type's registry entry. */
export async function createChannel(
  service: ChannelService,
  { ctx, projectId, input }: ProjectArgs & { input: CreateChannelInput },
): Promise<ChannelView> {
  await requireProject(ctx, projectId, "write");
  const { name, type, settings } = parseInput(CreateChannelInput, input);
  const spec: ChannelTypeSpec = CHANNEL_TYPES[type];
  const unavailable = spec.unavailable?.(service.channelDeps);
  if (unavailable) throw InvalidInputError.forField("type", unavailable);
  const split = parseChannelSettings(spec, settings);
  requirePublicUrls(spec, split, service.channelDeps);
  await requireFreeName(ctx.deps.meta.repos.notificationChannels, projectId, "a channel", name);
  const at = nowIso(ctx.deps);
  const record = await ctx.deps.meta.run((repos) =>
    repos.notificationChannels.insert({
      id: ctx.deps.newId("chn"),
      projectId,
      name,
      type,
      config: split.config,
      secret: sealSecret(service.secretBox, split.secret),
      createdAt: at,
      updatedAt: at,
    }),
  );
  return toView(service, record);
}

export async function listChannels(
  service: ChannelService,
  { ctx, projectId }: ProjectArgs,
): Promise<ChannelView[]> {
  await requireProject(ctx, projectId, "read");
  const channels = await ctx.deps.meta.repos.notificationChannels.listByProject(projectId);
  return channels.map((channel) => toView(service, channel));
}

export async function getChannel(
  service: ChannelService,
  { ctx, projectId, channelId }: ChannelArgs,
): Promise<ChannelView> {
  await requireProject(ctx, projectId, "read");
  return toView(service, await requireChannel(ctx.deps.meta.repos, projectId, channelId));
}

/** Changes name and settings (merged over the current ones, so secrets need not be resent); the type is fixed. */
export async function updateChannel(
  service: ChannelService,
  { ctx, projectId, channelId, input }: ChannelArgs & { input: UpdateChannelInput },
): Promise<ChannelView> {
  await requireProject(ctx, projectId, "write");
  const change = parseInput(UpdateChannelInput, input);
  const existing = await requireChannel(ctx.deps.meta.repos, projectId, channelId);
  const spec = specOf(existing);
  if (change.type !== undefined && change.type !== existing.type)
    throw InvalidInputError.forField(
      "type",
      `cannot change from '${existing.type}'; create a new channel instead`,
    );
  let { config, secret } = existing;
  if (change.settings) {
    let current: Record<string, unknown>;
    try {
      current = loadChannelSettings(spec, existing, service.secretBox);
    } catch {
      // An unreadable secret can still be replaced by sending it again.
      current = existing.config;
    }
    const split = parseChannelSettings(spec, { ...current, ...change.settings });
    requirePublicUrls(spec, split, service.channelDeps);
    config = split.config;
    secret = sealSecret(service.secretBox, split.secret);
  }
  const name = change.name ?? existing.name;
  if (name !== existing.name)
    await requireFreeName(
      ctx.deps.meta.repos.notificationChannels,
      projectId,
      "a channel",
      name,
      existing.id,
    );
  const updatedAt = nowIso(ctx.deps);
  await ctx.deps.meta.run((repos) =>
    repos.notificationChannels.update(existing.id, { name, config, secret, updatedAt }),
  );
  return toView(service, { ...existing, name, config, secret, updatedAt });
}

/** Deletes a channel and its delivery log; refused (409) while monitors still notify it, naming them. */
export async function deleteChannel(
  _service: ChannelService,
  { ctx, projectId, channelId }: ChannelArgs,
): Promise<void> {
  await requireProject(ctx, projectId, "write");
  await ctx.deps.meta.transaction(async ({ repos }) => {
    const channel = await requireChannel(repos, projectId, channelId);
    const users = [
      ["monitor", await repos.notificationChannels.listMonitorsUsing(channel.id)],
      ["alert rule", await repos.notificationChannels.listAlertRulesUsing(channel.id)],
    ] as const;
    const named = users
      .filter(([, list]) => list.length > 0)
      .map(([noun, list]) => {
        const names = list.map((m) => `'${m.name}' (${m.id})`).join(", ");
        return `${noun}${list.length === 1 ? "" : "s"} ${names}`;
      });
    if (named.length > 0)
      throw new ConflictError(
        `Channel '${channel.name}' is still used by ${named.join(" and ")}; remove it from them first`,
      );
    await repos.notificationChannels.delete(channel.id);
  });
}

/**
 * Sends a sample notification through the channel now (members and above) and records it in the
 * channel's delivery log. A failed send is a value `{ ok: false, error }`, not an error.
 */
export async function testChannel(
  service: ChannelService,
  { ctx, projectId, channelId }: ChannelArgs,
): Promise<ChannelTestResult> {
  await requireProject(ctx, projectId, "write");
  const channel = await requireChannel(ctx.deps.meta.repos, projectId, channelId);
  const now = ctx.deps.clock.now();
  const id = ctx.deps.newId("ntf");
  const notification = sampleNotification(projectId, now);
  let error: string | undefined;
  try {
    const spec = specOf(channel);
    const settings = loadChannelSettings(spec, channel, service.secretBox);
    await sendThroughChannel(spec, notification, settings, service.channelDeps, {
      deliveryId: id,
      occurredAt: now.toISOString(),
      sample: true,
    });
  } catch (failure) {
    error = errorMessage(failure);
  }
  const at = nowIso(ctx.deps);
  await ctx.deps.meta.repos.notificationDeliveries.insert({
    id,
    projectId,
    channelId: channel.id,
    monitorId: null,
    incidentId: null,
    event: TEST_DELIVERY_EVENT,
    payload: notification,
    status: error === undefined ? "sent" : "failed",
    attempts: 1,
    lastError: error ?? null,
    nextAttemptAt: null,
    sentAt: error === undefined ? at : null,
    createdAt: now.toISOString(),
  });
  return error === undefined ? { ok: true, deliveryId: id } : { ok: false, error, deliveryId: id };
}

/** The channel's last 50 deliveries, newest first. */
export async function listChannelDeliveries(
  _service: ChannelService,
  { ctx, projectId, channelId }: ChannelArgs,
): Promise<DeliveryView[]> {
  await requireProject(ctx, projectId, "read");
  const channel = await requireChannel(ctx.deps.meta.repos, projectId, channelId);
  const deliveries = await ctx.deps.meta.repos.notificationDeliveries.listByChannel(
    channel.id,
    DELIVERY_LOG_LIMIT,
  );
  return deliveries.map(toDeliveryView);
}
