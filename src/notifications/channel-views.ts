import type { ChannelView, NotificationDeliveryView } from "../contracts/channels.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { NotificationChannelRecord } from "../meta/repositories/notification-channels.js";
import type { NotificationDelivery } from "../meta/repositories/notification-deliveries.js";
import type { ChannelTypeSpec } from "./channels/channel-type.js";
import { channelTypeSpec, loadChannelSettings } from "./channels/registry.js";

// The API's views of a channel and a delivery (contracts/channels.ts), from the records.

/** The registry entry of a stored channel's type; an unknown type is refused as invalid input. */
export function specOf(channel: NotificationChannelRecord): ChannelTypeSpec {
  const spec = channelTypeSpec(channel.type);
  if (!spec) throw new InvalidInputError(`Unknown channel type '${channel.type}'`);
  return spec;
}

/** A channel as the API shows it: its settings decrypted and described by its type, secrets masked. */
export function toChannelView(box: SecretBox, channel: NotificationChannelRecord): ChannelView {
  const spec = specOf(channel);
  let settings: Record<string, unknown>;
  try {
    settings = spec.describe(loadChannelSettings(spec, channel, box));
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

export const toDeliveryView = (d: NotificationDelivery): NotificationDeliveryView => ({
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
