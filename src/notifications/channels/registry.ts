import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import type { ChannelType } from "../../contracts/channels.js";
import { InvalidInputError } from "../../lib/domain-errors.js";
import { privateTargetMessage, privateUrlHost } from "../../lib/http/address-policy.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Notification } from "../notification-payloads.js";
import type { ChannelDeps, ChannelTypeSpec, SendContext } from "./channel-type.js";
import { discordChannel } from "./discord.js";
import { emailChannel } from "./email.js";
import { opsgenieChannel } from "./opsgenie.js";
import { pagerDutyChannel } from "./pagerduty.js";
import { slackChannel } from "./slack.js";
import { teamsChannel } from "./teams.js";
import { telegramChannel } from "./telegram.js";
import { webhookChannel } from "./webhook.js";

/**
 * Every channel type (docs/design.md §2: adding one is its module, one entry here and its name in
 * contracts/channels.ts' CHANNEL_TYPE_NAMES, which this registry must cover).
 */
export const CHANNEL_TYPES = {
  webhook: webhookChannel,
  slack: slackChannel,
  email: emailChannel,
  pagerduty: pagerDutyChannel,
  teams: teamsChannel,
  discord: discordChannel,
  telegram: telegramChannel,
  opsgenie: opsgenieChannel,
} as const satisfies Record<ChannelType, ChannelTypeSpec>;

/** The registry entry of a type, with its settings types erased; undefined for unknown types. */
export function channelTypeSpec(type: string): ChannelTypeSpec | undefined {
  return Object.hasOwn(CHANNEL_TYPES, type) ? CHANNEL_TYPES[type as ChannelType] : undefined;
}

/** A channel's settings split the way they are stored. */
export interface SplitSettings {
  /** Public part, stored as JSON. */
  config: Record<string, unknown>;
  /** Secret part, stored encrypted; null when the type has no secret settings. */
  secret: Record<string, unknown> | null;
}

const secretKeys = (spec: ChannelTypeSpec) => Object.keys(spec.secret.shape);

/** Validates settings for a type; an InvalidInputError names each field as `settings.<field>`. */
export function parseChannelSettings(spec: ChannelTypeSpec, settings: unknown): SplitSettings {
  const schema = z.object({ ...spec.config.shape, ...spec.secret.shape }).strict();
  const input = settings ?? {};
  const result = schema.safeParse(input);
  if (!result.success) {
    const given = typeof input === "object" ? (input as Record<string, unknown>) : {};
    const issues = result.error.issues.flatMap((issue) => {
      if (issue.code === "unrecognized_keys")
        return issue.keys.map((key) => ({
          field: `settings.${key}`,
          message: `is not a setting of ${spec.label} channels`,
        }));
      const [first] = issue.path;
      const missing = issue.path.length === 1 && given[String(first)] === undefined;
      return [
        {
          field: ["settings", ...issue.path.map(String)].join("."),
          message: missing ? "is required" : issue.message,
        },
      ];
    });
    throw InvalidInputError.forIssues(issues);
  }
  const secret = new Set(secretKeys(spec));
  const entries = Object.entries(result.data);
  return {
    config: Object.fromEntries(entries.filter(([key]) => !secret.has(key))),
    secret: secret.size > 0 ? Object.fromEntries(entries.filter(([key]) => secret.has(key))) : null,
  };
}

/**
 * With the SSRF guard on, refuses URL settings that are certainly private (an IP literal or a
 * local name), naming `settings.<field>` and the setting that allows them.
 */
export function requirePublicUrls(
  spec: ChannelTypeSpec,
  split: SplitSettings,
  deps: ChannelDeps,
): void {
  if (deps.allowPrivateTargets) return;
  const settings = { ...split.config, ...split.secret };
  const issues = (spec.urlSettings ?? []).flatMap((key) => {
    const value = settings[key];
    const host = typeof value === "string" ? privateUrlHost(value) : undefined;
    if (!host) return [];
    const message = privateTargetMessage(host, "VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS");
    return [{ field: `settings.${key}`, message }];
  });
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
}

/**
 * Refuses an edit that changes where a channel sends (a URL or destination setting of its type)
 * without giving every secret setting again, naming each missing `settings.<secret>`: otherwise
 * whoever may edit a channel could point it elsewhere and have its stored secret sent there.
 * `current` are the settings before the edit, `given` the edit's settings, `next` the result.
 */
export function requireSecretsForNewDestination(
  spec: ChannelTypeSpec,
  current: Record<string, unknown>,
  given: Record<string, unknown>,
  next: SplitSettings,
): void {
  const secrets = secretKeys(spec);
  if (secrets.length === 0) return;
  const after: Record<string, unknown> = { ...next.config, ...next.secret };
  const destination = [...(spec.urlSettings ?? []), ...(spec.destinationSettings ?? [])];
  const moved = destination.some(
    (key) => given[key] !== undefined && !isDeepStrictEqual(after[key], current[key]),
  );
  if (!moved) return;
  const issues = secrets
    .filter((key) => given[key] === undefined)
    .map((key) => ({
      field: `settings.${key}`,
      message: "give the secret again when changing where the channel sends",
    }));
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
}

/** Seals the secret part for storage. */
export function sealSecret(box: SecretBox, secret: SplitSettings["secret"]): string | null {
  return secret === null ? null : box.seal(secret);
}

/**
 * The full settings of a stored channel: its config merged with its decrypted secret, checked
 * against the type's schemas again (a stored value is only trusted as far as it still parses).
 */
export function loadChannelSettings(
  spec: ChannelTypeSpec,
  stored: { config: unknown; secret: string | null },
  box: SecretBox,
): Record<string, unknown> {
  const config = spec.config.safeParse(stored.config);
  if (!config.success) throw new Error(`the stored ${spec.label} settings are no longer valid`);
  const secretValue = stored.secret === null ? {} : box.open(stored.secret);
  const secret = spec.secret.safeParse(secretValue);
  if (!secret.success) throw new Error(`the stored ${spec.label} secret is no longer valid`);
  return { ...config.data, ...secret.data };
}

/**
 * Sends through a channel. A failure is rethrown with every secret setting value replaced by
 * "[redacted]", so the message is safe for logs and the delivery record.
 */
export async function sendThroughChannel(
  spec: ChannelTypeSpec,
  notification: Notification,
  settings: Record<string, unknown>,
  deps: ChannelDeps,
  context: SendContext,
): Promise<void> {
  try {
    await spec.send(notification, settings, deps, context);
  } catch (error) {
    throw new Error(redactSecrets(spec, settings, errorMessage(error)));
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function redactSecrets(
  spec: ChannelTypeSpec,
  settings: Record<string, unknown>,
  text: string,
): string {
  let out = text;
  for (const key of secretKeys(spec)) {
    const value = settings[key];
    if (typeof value !== "string" || value.length === 0) continue;
    // Longest first, so a whole URL is redacted before its parts.
    for (const part of [value, ...secretUrlParts(value)].sort((a, b) => b.length - a.length))
      out = out.split(part).join("[redacted]");
  }
  return out;
}

/**
 * The parts of a secret URL that may be quoted without the rest (a proxy or an error telling the
 * path alone): its path and query, and each path segment or query value long enough to be a token.
 */
function secretUrlParts(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [];
  }
  const tokens = [
    ...url.pathname.split("/").flatMap((segment) => [segment, safeDecode(segment)]),
    ...[...url.searchParams.values()].flatMap((param) => [param, encodeURIComponent(param)]),
  ].filter(isTokenLike);
  if (tokens.length === 0) return [];
  const parts = [`${url.pathname}${url.search}`, url.pathname, url.search.slice(1), ...tokens];
  return [...new Set(parts.filter((part) => part.length >= 12))];
}

/** Long enough and with a digit: a token or key, not a word such as "webhooks". */
const isTokenLike = (text: string) => text.length >= 12 && /\d/.test(text);

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
