import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { Problem } from "../../../contracts/pagination.js";
import { PublicSubscribeAnswer } from "../../../contracts/status-page-subscribers.js";
import { Slug } from "../../../contracts/status-pages.js";
import { addressBucket } from "../../../lib/client-address.js";
import { DomainError } from "../../../lib/domain-errors.js";
import {
  renderSubscribePage,
  SUBSCRIBE_PAGE_CSP,
  type SubscribePageContent,
} from "../../../status-pages/public/subscribe-pages.js";
import {
  checkConfirmation,
  checkUnsubscribe,
  confirmSubscription,
  type LinkTarget,
  publicCtx,
  subscribeByEmail,
  unsubscribe,
} from "../../../status-pages/subscribers-public.js";
import { subscriptionPaths } from "../../../status-pages/subscribers-tokens.js";
import { rateLimitedError } from "../../key-limiter.js";
import { STATUS_BY_CODE } from "../../problem.js";
import type { RateLimitCounter } from "../../rate-limit-counter.js";

// The public subscription routes of a status page (docs/status-page-subscribers.md): the
// Subscribe form's POST (HTML for the form, JSON for scripts), and the confirmation and
// unsubscribe links (GET shows a button, POST acts; RFC 8058 one-click POSTs land there too).
// Rate limited per client address (an IPv6 one by its /64), per page (valid sign-ups only) and,
// silently, per email address and page.

const HOUR_MS = 3_600_000;
/**
 * Sign-up posts a client address may make in an hour, sign-ups a page may take in an hour,
 * confirmations an address is sent per page in an hour, and link requests per address a minute.
 */
export const SUBSCRIBE_LIMITS = { perAddress: 20, perPage: 200, perEmail: 3, linksPerMinute: 60 };

const tags = ["status"];
const SlugParams = z.object({ slug: Slug });
const TokenParams = SlugParams.extend({ token: z.string().min(1).max(200) });
/** Loose on purpose: the verb checks the fields and the form gets its message as HTML. */
const SubscribeBody = z
  .object({
    email: z.string().optional(),
    componentIds: z.union([z.string(), z.array(z.string())]).optional(),
  })
  .describe("Form fields (application/x-www-form-urlencoded) or JSON: email, componentIds");
const html = z.string().describe("An HTML page");
const problems = { 400: Problem, 404: Problem, 429: Problem, 503: Problem };

const isForm = (request: FastifyRequest) =>
  (request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");

function sendPage(reply: FastifyReply, status: number, content: SubscribePageContent) {
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("content-security-policy", SUBSCRIBE_PAGE_CSP)
    .header("referrer-policy", "no-referrer")
    .send(Buffer.from(renderSubscribePage(content)));
}

/** A domain error as the page says it (the status of its code); anything else is rethrown. */
function sendRefusal(reply: FastifyReply, error: unknown, slug: string, heading: string) {
  if (!(error instanceof DomainError)) throw error;
  if (error.retryAfterSeconds !== undefined)
    reply.header("retry-after", String(error.retryAfterSeconds));
  const unknownPage = error.code === "not_found" && error.message.startsWith("Status page");
  const message =
    error.code === "invalid_input" && error.issues.length > 0
      ? error.issues
          .map((i) => (i.field === "email" ? `Email address: ${i.message}` : i.message))
          .join(". ")
      : unknownPage
        ? "There is no status page at this address."
        : error.message;
  return sendPage(reply, STATUS_BY_CODE[error.code], {
    pageTitle: null,
    pagePath: unknownPage ? null : subscriptionPaths.page(slug),
    heading,
    message,
    error: true,
  });
}

const digest = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 22);

export const subscribeRoutes =
  (deps: AppDeps, counter: RateLimitCounter): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = publicCtx(deps.domain);
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 16 * 1024 },
      (_request, body, done) => {
        const params = new URLSearchParams(typeof body === "string" ? body : body.toString("utf8"));
        const fields: Record<string, string | string[]> = {};
        for (const key of new Set(params.keys()))
          fields[key] = key === "componentIds" ? params.getAll(key) : (params.get(key) ?? "");
        done(null, fields);
      },
    );

    /** Counts one hit; throws rate_limited past `max` in the window. */
    async function take(key: string, max: number, windowMs: number): Promise<void> {
      const { current, ttl } = await counter.increment(key, windowMs);
      if (current > max) throw rateLimitedError(max, ttl);
    }
    const linkLimit = (request: FastifyRequest) =>
      take(`status-links:ip:${addressBucket(request.ip)}`, SUBSCRIBE_LIMITS.linksPerMinute, 60_000);

    app.post(
      "/status/:slug/subscribe",
      {
        schema: {
          tags,
          summary: "Subscribe an email address to a status page (double opt-in)",
          description:
            "The same answer whether or not the address was subscribed already. A form post gets an HTML page, JSON gets 202.",
          consumes: ["application/x-www-form-urlencoded", "application/json"],
          params: SlugParams,
          body: SubscribeBody.optional(),
          response: { 200: html, 202: PublicSubscribeAnswer, ...problems },
        },
      },
      async (request, reply) => {
        const { slug } = request.params;
        const form = isForm(request);
        try {
          await take(
            `status-subscribe:ip:${addressBucket(request.ip)}`,
            SUBSCRIBE_LIMITS.perAddress,
            HOUR_MS,
          );
          const body = request.body ?? {};
          const input = {
            ...body,
            componentIds:
              typeof body.componentIds === "string" ? [body.componentIds] : body.componentIds,
          };
          const answer = await subscribeByEmail({
            ctx,
            slug,
            input,
            limits: {
              // Counted after validation, so junk posts cannot use up a page's real sign-ups.
              takePage: (pageId) =>
                take(`status-subscribe:page:${pageId}`, SUBSCRIBE_LIMITS.perPage, HOUR_MS),
              refundPage: (pageId) => counter.decrement(`status-subscribe:page:${pageId}`),
              // Each address is emailed a few times an hour per page at most, whoever asks: no
              // mail bombing, and one page's sign-ups cannot silence the address on another.
              mayEmail: async (pageId, address) =>
                (
                  await counter.increment(
                    `status-subscribe:email:${digest(`${pageId}\n${address}`)}`,
                    HOUR_MS,
                  )
                ).current <= SUBSCRIBE_LIMITS.perEmail,
            },
          });
          if (!form) return reply.code(202).send(answer);
          return sendPage(reply, 200, {
            pageTitle: null,
            pagePath: subscriptionPaths.page(slug),
            heading: "Check your inbox",
            message: answer.message,
          });
        } catch (error) {
          if (!form) throw error;
          return sendRefusal(reply, error, slug, "Subscription not started");
        }
      },
    );

    /** A link's GET (shows the button) and POST (acts), answered as pages. */
    function linkRoutes(
      path: string,
      texts: {
        summary: [string, string];
        refused: string;
        ask: (
          target: LinkTarget,
        ) => Omit<SubscribePageContent, "pagePath" | "pageTitle" | "button"> & { label: string };
        done: (target: LinkTarget) => Omit<SubscribePageContent, "pagePath" | "pageTitle">;
      },
      check: typeof checkConfirmation,
      act: typeof confirmSubscription,
    ) {
      const schema = (summary: string) => ({
        tags,
        summary,
        params: TokenParams,
        response: { 200: html, ...problems },
      });
      // The token is a secret: the request log shows the route instead of the path.
      const config = { secretPath: true };
      app.get(path, { config, schema: schema(texts.summary[0]) }, async (request, reply) => {
        const { slug, token } = request.params;
        try {
          await linkLimit(request);
          const target = await check(ctx, slug, token);
          const { label, ...ask } = texts.ask(target);
          return sendPage(reply, 200, {
            ...ask,
            pageTitle: target.page.title,
            pagePath: subscriptionPaths.page(target.page.slug),
            button: { action: request.url.split("?")[0] ?? path, label },
          });
        } catch (error) {
          return sendRefusal(reply, error, slug, texts.refused);
        }
      });
      app.post(
        path,
        {
          config,
          schema: { ...schema(texts.summary[1]), consumes: ["application/x-www-form-urlencoded"] },
        },
        async (request, reply) => {
          const { slug, token } = request.params;
          try {
            await linkLimit(request);
            const target = await act(ctx, slug, token);
            return sendPage(reply, 200, {
              ...texts.done(target),
              pageTitle: target.page.title,
              pagePath: subscriptionPaths.page(target.page.slug),
            });
          } catch (error) {
            return sendRefusal(reply, error, slug, texts.refused);
          }
        },
      );
    }

    linkRoutes(
      "/status/:slug/subscribe/confirm/:token",
      {
        summary: [
          "The confirmation link of an email subscription: a page with a Confirm button",
          "Confirm an email subscription (single use, valid 48 hours)",
        ],
        refused: "Subscription not confirmed",
        ask: (t) => ({
          heading: "Confirm your subscription",
          message: `Confirm to receive ${t.page.title} incident and maintenance updates by email.`,
          label: "Confirm subscription",
        }),
        done: (t) => ({
          heading: "You are subscribed",
          message: `You will receive ${t.page.title} incident and maintenance updates. Every email has a link to unsubscribe.`,
        }),
      },
      checkConfirmation,
      confirmSubscription,
    );
    linkRoutes(
      "/status/:slug/unsubscribe/:token",
      {
        summary: [
          "The unsubscribe link of a subscriber's email: a page with an Unsubscribe button",
          "Unsubscribe (also RFC 8058 one-click, List-Unsubscribe=One-Click)",
        ],
        refused: "Unsubscribe",
        ask: (t) => ({
          heading: "Unsubscribe",
          message: `Stop receiving ${t.page.title} status updates at this address?`,
          label: "Unsubscribe",
        }),
        done: (t) => ({
          heading: "You are unsubscribed",
          message: `You will no longer receive ${t.page.title} status updates.`,
        }),
      },
      checkUnsubscribe,
      unsubscribe,
    );
  };
