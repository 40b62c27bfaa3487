import {
  type AnonymousActor,
  anonymousCtx,
  type Ctx,
  type DomainDeps,
  nowIso,
} from "../context.js";
import { PublicSubscribeInput } from "../contracts/status-page-subscribers.js";
import { DomainError, NotFoundError, UnavailableError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { StatusPageRecord } from "../meta/repositories/status-pages.js";
import {
  confirmExpiry,
  enqueueConfirmation,
  newSubscriber,
  requirePageComponents,
  type SubscriberDeps,
} from "./subscribers.js";
import { isTokenShaped, newToken, tokenHash } from "./subscribers-tokens.js";

// The public side of subscriptions (docs/status-page-subscribers.md): sign up by email from the
// page, confirm from the emailed link, unsubscribe from any email's link. No answer tells whether
// an address was subscribed already; every link's token is single-purpose and looked up by hash.

type PublicDeps = DomainDeps & { subscribers: SubscriberDeps };
export type PublicCtx = Ctx<PublicDeps, AnonymousActor>;

export const publicCtx = (deps: PublicDeps): PublicCtx => anonymousCtx(deps);

/** What a link's page shows: the status page it belongs to. */
export interface LinkTarget {
  page: Pick<StatusPageRecord, "id" | "slug" | "title">;
}

/** The sentence every sign-up gets, whatever the address's state: nothing leaks. */
export const SUBSCRIBE_ANSWER =
  "Check your inbox: if the address can subscribe, we sent it a link to confirm the subscription.";

async function pageBySlug(ctx: PublicCtx, slug: string): Promise<StatusPageRecord> {
  const page = await ctx.deps.meta.repos.statusPages.findBySlug(slug);
  if (!page) throw new NotFoundError("Status page", slug);
  return page;
}

/** The page of a public route, for the HTML answers (404 when there is none). */
export const publicPage = (ctx: PublicCtx, slug: string) => pageBySlug(ctx, slug);

/** The limits a sign-up is held to, counted by the caller (the route's rate-limit counters). */
export interface SignUpLimits {
  /**
   * Counts one sign-up against the page's budget, throwing rate_limited past it. Only a valid
   * sign-up reaches it, whatever the address's state, so the answer tells nothing of that state.
   */
  takePage(pageId: string): Promise<void>;
  /** Gives back what takePage counted: the sign-up stored nothing (nothing was emailed). */
  refundPage(pageId: string): Promise<void>;
  /** Whether this address may be emailed now for this page (its own limit). */
  mayEmail(pageId: string, address: string): Promise<boolean>;
}

/**
 * An email sign-up. A new address is stored pending with a confirmation emailed (valid for 48 h);
 * a pending one gets a new link; a confirmed one nothing. The page's budget is counted only for
 * a valid sign-up that stores or renews a pending one; when `mayEmail` says no, nothing is sent,
 * and the answer is the same.
 */
export async function subscribeByEmail({
  ctx,
  slug,
  input,
  limits,
}: {
  ctx: PublicCtx;
  slug: string;
  input: unknown;
  limits: SignUpLimits;
}): Promise<{ message: string }> {
  const page = await pageBySlug(ctx, slug);
  if (!ctx.deps.subscribers.emailAvailable)
    throw new UnavailableError("This status page does not offer email subscriptions");
  const parsed = parseInput(PublicSubscribeInput, input);
  const componentIds = await requirePageComponents(ctx.deps.meta, page.id, parsed.componentIds);
  await limits.takePage(page.id);
  let queued = false;
  try {
    if (!(await limits.mayEmail(page.id, parsed.email))) return { message: SUBSCRIBE_ANSWER };
    queued = await ctx.deps.meta.transaction(async (tx) => {
      const repo = tx.repos.statusPageSubscribers;
      const existing = await repo.findByAddress(page.id, parsed.email);
      if (existing?.status === "confirmed") return false;
      if (existing) {
        const confirm = newToken();
        const renewed = await repo.renewPending(existing.id, {
          confirmTokenHash: confirm.hash,
          confirmExpiresAt: confirmExpiry(ctx.deps.clock.now()),
          componentIds,
          at: nowIso(ctx.deps),
        });
        if (renewed) await enqueueConfirmation(tx, ctx.deps, existing, confirm.token);
        return renewed;
      }
      const made = newSubscriber(ctx.deps, {
        pageId: page.id,
        kind: "email",
        address: parsed.email,
        componentIds,
        createdBy: null,
      });
      await repo.insert(made.record);
      await repo.ensureCursor(page.id, made.record.createdAt);
      if (made.confirmToken)
        await enqueueConfirmation(tx, ctx.deps, made.record, made.confirmToken);
      return true;
    });
  } finally {
    if (!queued) await limits.refundPage(page.id);
  }
  ctx.deps.subscribers.kick();
  return { message: SUBSCRIBE_ANSWER };
}

/** The pending subscriber a confirmation link names, when it is of this page and not expired. */
async function pendingOf(ctx: PublicCtx, page: StatusPageRecord, token: string) {
  if (!isTokenShaped(token)) return undefined;
  const s = await ctx.deps.meta.repos.statusPageSubscribers.findByConfirmHash(tokenHash(token));
  const live =
    s !== undefined &&
    s.pageId === page.id &&
    s.status === "pending" &&
    s.confirmExpiresAt !== null &&
    s.confirmExpiresAt > nowIso(ctx.deps);
  return live ? s : undefined;
}

/** A link that cannot be used: a 404 whose message is the page's sentence. */
const linkGone = (message: string) => new DomainError("not_found", message);

const LINK_GONE = "This link is not valid: it may have expired or been used already.";

/** Whether a confirmation link can still be used (the GET page shows its button, or why not). */
export async function checkConfirmation(
  ctx: PublicCtx,
  slug: string,
  token: string,
): Promise<LinkTarget> {
  const page = await pageBySlug(ctx, slug);
  if (!(await pendingOf(ctx, page, token))) throw linkGone(LINK_GONE);
  return { page };
}

/** Confirms a subscription (single use); unknown, used and expired links are the same 404. */
export async function confirmSubscription(
  ctx: PublicCtx,
  slug: string,
  token: string,
): Promise<LinkTarget> {
  const page = await pageBySlug(ctx, slug);
  const pending = await pendingOf(ctx, page, token);
  const repo = ctx.deps.meta.repos.statusPageSubscribers;
  if (!pending || !(await repo.confirm(pending.id, nowIso(ctx.deps)))) throw linkGone(LINK_GONE);
  return { page };
}

/** Whether an unsubscribe link names a subscriber of this page. */
export async function checkUnsubscribe(
  ctx: PublicCtx,
  slug: string,
  token: string,
): Promise<LinkTarget> {
  const page = await pageBySlug(ctx, slug);
  const s = isTokenShaped(token)
    ? await ctx.deps.meta.repos.statusPageSubscribers.findByUnsubscribeHash(tokenHash(token))
    : undefined;
  if (!s || s.pageId !== page.id)
    throw linkGone("This link is not valid, or the subscription has ended already.");
  return { page };
}

/**
 * Ends a subscription (RFC 8058 one-click too). Idempotent: a link already used, or unknown,
 * answers the same, so the answer says nothing of who was subscribed.
 */
export async function unsubscribe(
  ctx: PublicCtx,
  slug: string,
  token: string,
): Promise<LinkTarget> {
  const page = await pageBySlug(ctx, slug);
  if (!isTokenShaped(token)) return { page };
  const repo = ctx.deps.meta.repos.statusPageSubscribers;
  const s = await repo.findByUnsubscribeHash(tokenHash(token));
  if (s && s.pageId === page.id) await repo.delete(s.id);
  return { page };
}
