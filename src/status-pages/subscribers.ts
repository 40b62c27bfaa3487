import { type Ctx, type DomainDeps, nowIso } from "../context.js";
import type { Page } from "../contracts/pagination.js";
import { pageInfo } from "../contracts/pagination.js";
import {
  CONFIRM_HOURS,
  type CreatedSubscriberView,
  CreateSubscriberInput,
  type SubscriberCountsView,
  type SubscriberView,
} from "../contracts/status-page-subscribers.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import {
  isLoopbackUrlHost,
  privateTargetMessage,
  privateUrlHost,
} from "../lib/http/address-policy.js";
import type { SecretBox } from "../lib/secret-box.js";
import { parseInput, unknownIds } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageSubscriberRecord } from "../meta/repositories/status-page-subscribers.js";
import { generateSecret } from "../webhooks/signing.js";
import { findPage, type PageRef } from "./status-pages.js";
import { newToken } from "./subscribers-tokens.js";

// A status page's subscribers as its organization manages them (docs/status-page-subscribers.md):
// counts and the list for every member; owners and admins add webhooks (or invite an email,
// which still confirms) and remove anyone. The public sign-up is subscribers-public.ts.

/** What the subscribers' verbs need besides the domain base (`ctx.deps.subscribers`). */
export interface SubscriberDeps {
  /** Seals the unsubscribe tokens and webhook secrets. */
  secretBox: SecretBox;
  /** Whether email can be sent (SMTP configured): email subscriptions need it. */
  emailAvailable: boolean;
  /** VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: webhook URLs may then be private. */
  allowPrivateTargets: boolean;
  /** Wakes the worker: a confirmation email is waiting. */
  kick(): void;
}

export type SubscriberCtx = PageRef["ctx"] & Ctx<DomainDeps & { subscribers: SubscriberDeps }>;

export const toSubscriberView = (s: StatusPageSubscriberRecord): SubscriberView => ({
  id: s.id,
  pageId: s.pageId,
  kind: s.kind,
  address: s.address,
  status: s.status,
  componentIds: s.componentIds,
  createdAt: s.createdAt,
  confirmedAt: s.confirmedAt,
});

/** Every listed component must be one of the page's; the list comes back unique and sorted. */
export async function requirePageComponents(
  meta: MetaAccess,
  pageId: string,
  componentIds: readonly string[],
): Promise<string[]> {
  if (componentIds.length === 0) return [];
  const known = new Set((await meta.repos.statusPages.listComponents(pageId)).map((c) => c.id));
  const issues = unknownIds(
    "componentIds",
    componentIds,
    known,
    (id) => `no component '${id}' on this page`,
  );
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
  return [...new Set(componentIds)].sort();
}

/** A webhook URL the guard would refuse is refused now, naming `url`. */
function checkWebhookUrl(url: string, allowPrivate: boolean): void {
  const parsed = new URL(url);
  if (parsed.protocol === "http:" && !isLoopbackUrlHost(parsed))
    throw InvalidInputError.forField(
      "url",
      "use an https:// URL (plain http:// only reaches this machine)",
    );
  const host = privateUrlHost(url);
  if (host !== undefined && !allowPrivate)
    throw InvalidInputError.forField(
      "url",
      privateTargetMessage(host, "VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS"),
    );
}

/** A new subscriber's record: pending with a confirmation token, or (webhook) confirmed. */
export function newSubscriber(
  deps: DomainDeps & { subscribers: SubscriberDeps },
  fields: Pick<
    StatusPageSubscriberRecord,
    "pageId" | "kind" | "address" | "componentIds" | "createdBy"
  >,
): { record: StatusPageSubscriberRecord; confirmToken?: string; secret?: string } {
  const now = deps.clock.now();
  const at = now.toISOString();
  const { secretBox } = deps.subscribers;
  const unsubscribe = newToken();
  const base = {
    id: deps.newId("sub"),
    ...fields,
    unsubscribeTokenHash: unsubscribe.hash,
    unsubscribeToken: secretBox.seal(unsubscribe.token),
    createdAt: at,
    updatedAt: at,
  };
  if (fields.kind === "webhook") {
    const secret = generateSecret();
    return {
      record: {
        ...base,
        status: "confirmed",
        secret: secretBox.seal(secret),
        confirmTokenHash: null,
        confirmExpiresAt: null,
        confirmedAt: at,
      },
      secret,
    };
  }
  const confirm = newToken();
  return {
    record: {
      ...base,
      status: "pending",
      secret: null,
      confirmTokenHash: confirm.hash,
      confirmExpiresAt: confirmExpiry(now),
      confirmedAt: null,
    },
    confirmToken: confirm.token,
  };
}

export const confirmExpiry = (now: Date): string =>
  new Date(now.getTime() + CONFIRM_HOURS * 3_600_000).toISOString();

/** Queues the confirmation email of a pending subscriber (its token sealed in the outbox). */
export async function enqueueConfirmation(
  tx: MetaAccess,
  deps: DomainDeps & { subscribers: SubscriberDeps },
  subscriber: Pick<StatusPageSubscriberRecord, "id" | "pageId">,
  token: string,
): Promise<void> {
  await tx.repos.statusPageNotifications.insertMany([
    {
      id: deps.newId("spn"),
      pageId: subscriber.pageId,
      subscriberId: subscriber.id,
      event: "subscription.confirm",
      payload: { token: deps.subscribers.secretBox.seal(token) },
      createdAt: nowIso(deps),
    },
  ]);
}

/** A page's subscribers, newest first (every member of the organization). */
export async function listSubscribers({
  ctx,
  page: window,
  ...ref
}: PageRef & { ctx: SubscriberCtx; page: { page: number; limit: number } }): Promise<
  Page<SubscriberView>
> {
  const page = await findPage({ ctx, ...ref, access: "read" });
  const { rows, total } = await ctx.deps.meta.repos.statusPageSubscribers.list(page.id, {
    limit: window.limit,
    offset: (window.page - 1) * window.limit,
    at: nowIso(ctx.deps),
  });
  return { data: rows.map(toSubscriberView), pagination: pageInfo(window, total) };
}

export async function subscriberCounts({ ctx, ...ref }: PageRef): Promise<SubscriberCountsView> {
  const page = await findPage({ ctx, ...ref, access: "read" });
  return ctx.deps.meta.repos.statusPageSubscribers.counts(page.id, nowIso(ctx.deps));
}

/**
 * Adds a subscriber (owners and admins): a webhook is confirmed at once and its signing secret
 * is in this answer only; an email is sent a confirmation like a sign-up from the public page.
 */
export async function createSubscriber({
  ctx,
  input,
  ...ref
}: PageRef & { ctx: SubscriberCtx; input: unknown }): Promise<CreatedSubscriberView> {
  const parsed = parseInput(CreateSubscriberInput, input);
  const page = await findPage({ ctx, ...ref, access: "manage" });
  const { subscribers } = ctx.deps;
  if (parsed.kind === "webhook") checkWebhookUrl(parsed.url, subscribers.allowPrivateTargets);
  else if (!subscribers.emailAvailable)
    throw InvalidInputError.forField("kind", "email needs SMTP (VIGIL_SMTP_URL) on this server");
  const address = parsed.kind === "webhook" ? parsed.url : parsed.email;
  const field = parsed.kind === "webhook" ? "url" : "email";
  const created = await ctx.deps.meta.transaction(async (tx) => {
    const componentIds = await requirePageComponents(tx, page.id, parsed.componentIds);
    if (await tx.repos.statusPageSubscribers.findByAddress(page.id, address))
      throw new ConflictError(`This ${field} already subscribes to the page`, [
        { field, message: "already subscribes to this page" },
      ]);
    const made = newSubscriber(ctx.deps, {
      pageId: page.id,
      kind: parsed.kind,
      address,
      componentIds,
      createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    });
    await tx.repos.statusPageSubscribers.insert(made.record);
    await tx.repos.statusPageSubscribers.ensureCursor(page.id, made.record.createdAt);
    if (made.confirmToken) await enqueueConfirmation(tx, ctx.deps, made.record, made.confirmToken);
    return made;
  });
  if (created.confirmToken) subscribers.kick();
  return {
    ...toSubscriberView(created.record),
    ...(created.secret ? { secret: created.secret } : {}),
  };
}

/** Removes a subscriber (owners and admins); what was queued for it goes with it. */
export async function removeSubscriber({
  ctx,
  subscriberId,
  ...ref
}: PageRef & { subscriberId: string }): Promise<void> {
  const page = await findPage({ ctx, ...ref, access: "manage" });
  const repo = ctx.deps.meta.repos.statusPageSubscribers;
  const subscriber = await repo.findById(subscriberId);
  if (!subscriber || subscriber.pageId !== page.id || !(await repo.delete(subscriber.id)))
    throw new NotFoundError("Subscriber", subscriberId);
}
