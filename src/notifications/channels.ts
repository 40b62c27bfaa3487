import { z } from "zod";
import { type Ctx, type DomainDeps, nowIso } from "../context.js";
import {
  CHANNEL_TYPE_NAMES,
  type ChannelTestResult,
  type ChannelTypeView,
  type ChannelView,
  CreateChannelInput,
  DELIVERY_LOG_LIMIT,
  type NotificationDeliveryView,
  TEST_DELIVERY_EVENT,
  UpdateChannelInput,
} from "../contracts/channels.js";
import { ConflictError, InvalidInputError } from "../lib/domain-errors.js";
import type { SecretBox } from "../lib/secret-box.js";
import { parseInput } from "../lib/validation.js";
import type { Repositories } from "../meta/meta-store.js";
import { findInProject, requireFreeName } from "../projects/project-records.js";
import { requireProject } from "../projects/projects.js";
import { specOf, toChannelView, toDeliveryView } from "./channel-views.js";
import type { ChannelDeps, ChannelTypeSpec } from "./channels/channel-type.js";
import {
  CHANNEL_TYPES,
  errorMessage,
  loadChannelSettings,
  parseChannelSettings,
  requirePublicUrls,
  requireSecretsForNewDestination,
  sealSecret,
  sendThroughChannel,
} from "./channels/registry.js";
import type { MonitorNotification } from "./notification-payloads.js";

// The channel verbs; the API's schemas are contracts/channels.ts, the types the registry in
// channels/registry.ts (docs/design.md §2: adding a channel type is one entry there).

/**
 * What the channel verbs (and the dispatcher) need beyond the domain deps: the box that seals
 * secret settings, and what channels send with. Built once by the composition root.
 */
export interface ChannelService {
  secretBox: SecretBox;
  channelDeps: ChannelDeps;
}

/** What the channel verbs need: the domain deps and the channels' section (docs/design.md §2). */
export type ChannelCtx = Ctx<DomainDeps & { channels: ChannelService }>;

type ProjectArgs = { ctx: ChannelCtx; projectId: string };
type ChannelArgs = ProjectArgs & { channelId: string };

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

/** The project's channel; one of another project is reported as not found. */
const requireChannel = (repos: Repositories, projectId: string, channelId: string) =>
  findInProject(repos.notificationChannels, projectId, "Notification channel", channelId);

/**
 * Every channel type of the registry with the JSON Schema of its settings, so a client can build
 * the form of each type, and whether this server can create it (email needs SMTP).
 */
export function listChannelTypes({ ctx }: { ctx: ChannelCtx }): ChannelTypeView[] {
  return CHANNEL_TYPE_NAMES.map((type) => {
    const spec: ChannelTypeSpec = CHANNEL_TYPES[type];
    const unavailable = spec.unavailable?.(ctx.deps.channels.channelDeps);
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
export async function createChannel({
  ctx,
  projectId,
  input,
}: ProjectArgs & { input: CreateChannelInput }): Promise<ChannelView> {
  await requireProject({ ctx, projectId, access: "write" });
  const { name, type, settings } = parseInput(CreateChannelInput, input);
  const spec: ChannelTypeSpec = CHANNEL_TYPES[type];
  const unavailable = spec.unavailable?.(ctx.deps.channels.channelDeps);
  if (unavailable) throw InvalidInputError.forField("type", unavailable);
  const split = parseChannelSettings(spec, settings);
  requirePublicUrls(spec, split, ctx.deps.channels.channelDeps);
  await requireFreeName(ctx.deps.meta.repos.notificationChannels, projectId, "a channel", name);
  const at = nowIso(ctx.deps);
  const record = await ctx.deps.meta.run((repos) =>
    repos.notificationChannels.insert({
      id: ctx.deps.newId("chn"),
      projectId,
      name,
      type,
      config: split.config,
      secret: sealSecret(ctx.deps.channels.secretBox, split.secret),
      createdAt: at,
      updatedAt: at,
    }),
  );
  return toChannelView(ctx.deps.channels.secretBox, record);
}

export async function listChannels({ ctx, projectId }: ProjectArgs): Promise<ChannelView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const channels = await ctx.deps.meta.repos.notificationChannels.listByProject(projectId);
  return channels.map((channel) => toChannelView(ctx.deps.channels.secretBox, channel));
}

export async function getChannel({ ctx, projectId, channelId }: ChannelArgs): Promise<ChannelView> {
  await requireProject({ ctx, projectId, access: "read" });
  return toChannelView(
    ctx.deps.channels.secretBox,
    await requireChannel(ctx.deps.meta.repos, projectId, channelId),
  );
}

/**
 * Changes name and settings (merged over the current ones, so secrets need not be resent, except
 * when the edit changes where the channel sends); the type is fixed.
 */
export async function updateChannel({
  ctx,
  projectId,
  channelId,
  input,
}: ChannelArgs & { input: UpdateChannelInput }): Promise<ChannelView> {
  await requireProject({ ctx, projectId, access: "write" });
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
      current = loadChannelSettings(spec, existing, ctx.deps.channels.secretBox);
    } catch {
      // An unreadable secret can still be replaced by sending it again.
      current = existing.config;
    }
    const split = parseChannelSettings(spec, { ...current, ...change.settings });
    requireSecretsForNewDestination(spec, current, change.settings, split);
    requirePublicUrls(spec, split, ctx.deps.channels.channelDeps);
    config = split.config;
    secret = sealSecret(ctx.deps.channels.secretBox, split.secret);
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
  return toChannelView(ctx.deps.channels.secretBox, {
    ...existing,
    name,
    config,
    secret,
    updatedAt,
  });
}

/** The project's escalation policies with a step that notifies the channel. */
const policiesUsing = async (repos: Repositories, projectId: string, channelId: string) =>
  (await repos.escalationPolicies.listByProject(projectId)).filter((p) =>
    p.steps.some((s) => s.channelIds.includes(channelId)),
  );

/**
 * Deletes a channel and its delivery log; refused (409) while monitors, alert rules or
 * escalation policies still notify it, naming them.
 */
export async function deleteChannel({ ctx, projectId, channelId }: ChannelArgs): Promise<void> {
  await requireProject({ ctx, projectId, access: "write" });
  await ctx.deps.meta.transaction(async ({ repos }) => {
    const channel = await requireChannel(repos, projectId, channelId);
    const users = [
      ["monitor", await repos.notificationChannels.listMonitorsUsing(channel.id)],
      ["alert rule", await repos.notificationChannels.listAlertRulesUsing(channel.id)],
      ["escalation policy", await policiesUsing(repos, projectId, channel.id)],
    ] as const;
    const named = users
      .filter(([, list]) => list.length > 0)
      .map(([noun, list]) => {
        const names = list.map((m) => `'${m.name}' (${m.id})`).join(", ");
        return `${list.length === 1 ? noun : `${noun.replace(/y$/, "ie")}s`} ${names}`;
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
export async function testChannel({
  ctx,
  projectId,
  channelId,
}: ChannelArgs): Promise<ChannelTestResult> {
  await requireProject({ ctx, projectId, access: "write" });
  const channel = await requireChannel(ctx.deps.meta.repos, projectId, channelId);
  const now = ctx.deps.clock.now();
  const id = ctx.deps.newId("ntf");
  const notification = sampleNotification(projectId, now);
  let error: string | undefined;
  try {
    const spec = specOf(channel);
    const settings = loadChannelSettings(spec, channel, ctx.deps.channels.secretBox);
    await sendThroughChannel(spec, notification, settings, ctx.deps.channels.channelDeps, {
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
export async function listChannelDeliveries({
  ctx,
  projectId,
  channelId,
}: ChannelArgs): Promise<NotificationDeliveryView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const channel = await requireChannel(ctx.deps.meta.repos, projectId, channelId);
  const deliveries = await ctx.deps.meta.repos.notificationDeliveries.listByChannel(
    channel.id,
    DELIVERY_LOG_LIMIT,
  );
  return deliveries.map(toDeliveryView);
}
