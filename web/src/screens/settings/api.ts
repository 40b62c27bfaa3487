import type { ApiKeyPermissions, ApiKeyView, MemberView } from "../../../../src/contracts/auth";
import type {
  ChannelTypeView,
  ChannelView,
  NotificationDeliveryView,
} from "../../../../src/contracts/channels";
import type {
  WebhookDeliveryRecordView,
  WebhookEndpointView,
  WebhookEventTypeView,
} from "../../../../src/contracts/webhooks";
import { api, type ListPage, orgApi, projectApi } from "../../api/client";

// The settings APIs' shapes are the contracts': src/contracts/auth.ts (API keys, members),
// src/contracts/webhooks.ts and src/contracts/channels.ts.

/** One setting of a channel type, as its JSON Schema describes it. */
export interface SettingSchema {
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  items?: { type?: string; format?: string };
  maxLength?: number;
  maxItems?: number;
  /** The choices of a setting that takes one of a few values (a region). */
  enum?: string[];
  default?: unknown;
}
/** A channel type with its settings' JSON Schema read as the form needs it. */
export type ChannelTypeInfo = Omit<ChannelTypeView, "settings"> & {
  settings: { properties?: Record<string, SettingSchema>; required?: string[] };
};

/** Every list these screens show is small (keys, endpoints, channels, members): one page of all. */
const ALL = { limit: 1000 };

export const keys = {
  apiKeys: (projectId: string) => ["settings", projectId, "api-keys"] as const,
  endpoints: (projectId: string) => ["settings", projectId, "webhooks"] as const,
  deliveries: (projectId: string, endpointId: string) =>
    ["settings", projectId, "webhooks", endpointId, "deliveries"] as const,
  eventTypes: ["webhook-event-types"] as const,
  keyPermissions: ["api-key-permissions"] as const,
  channels: (projectId: string) => ["settings", projectId, "channels"] as const,
  channelDeliveries: (projectId: string, channelId: string) =>
    ["settings", projectId, "channels", channelId, "deliveries"] as const,
  channelTypes: ["channel-types"] as const,
  members: (orgId: string) => ["settings", "org", orgId, "members"] as const,
};

export const webhookPath = (projectId: string, path = "") =>
  `/webhooks/${encodeURIComponent(projectId)}/endpoints${path}`;

export const fetchApiKeys = (projectId: string) =>
  api<ListPage<ApiKeyView>>(projectApi(projectId, "/api-keys"), { query: ALL });
export const fetchKeyPermissions = () => api<ApiKeyPermissions>("/api/api-key-permissions");
export const fetchEndpoints = (projectId: string) =>
  api<ListPage<WebhookEndpointView>>(webhookPath(projectId), { query: ALL });
export const fetchDeliveries = (projectId: string, endpointId: string) =>
  api<ListPage<WebhookDeliveryRecordView>>(
    webhookPath(projectId, `/${encodeURIComponent(endpointId)}/deliveries`),
    { query: ALL },
  );
export const fetchEventTypes = () =>
  api<{ data: WebhookEventTypeView[] }>("/webhooks/event-types").then((r) => r.data);
export const fetchChannels = (projectId: string) =>
  api<ListPage<ChannelView>>(projectApi(projectId, "/channels"), { query: ALL });
export const fetchChannelTypes = () =>
  api<{ data: ChannelTypeInfo[] }>("/api/channel-types").then((r) => r.data);
export const fetchChannelDeliveries = (projectId: string, channelId: string) =>
  api<ListPage<NotificationDeliveryView>>(
    projectApi(projectId, `/channels/${encodeURIComponent(channelId)}/deliveries`),
    { query: ALL },
  );
export const fetchMembers = (orgId: string) =>
  api<ListPage<MemberView>>(orgApi(orgId, "/members"), { query: ALL });
