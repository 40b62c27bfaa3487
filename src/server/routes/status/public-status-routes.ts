import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { Problem } from "../../../contracts/pagination.js";
import { StatusPageData } from "../../../contracts/status-page-data.js";
import { Slug } from "../../../contracts/status-pages.js";
import { InvalidInputError, NotFoundError } from "../../../lib/domain-errors.js";
import { BadgeQuery, renderStatusBadge } from "../../../status-pages/public/badge.js";
import { renderIncidentFeed } from "../../../status-pages/public/feed.js";
import { renderStatusPage } from "../../../status-pages/public/render-page.js";
import {
  StatuspageSummary,
  toStatuspageSummary,
} from "../../../status-pages/public/statuspage-summary.js";
import type { CachedStatusPage } from "../../../status-pages/reader.js";
import { type Delivery, sendDocument } from "./send-document.js";

const SlugParams = z.object({ slug: Slug });
const tags = ["status"];
const problems = { 400: Problem, 404: Problem };

/** A format of the public page: how it is sent and how it is drawn from the payload. */
interface PublicFormat extends Delivery {
  /** Its links are absolute: drawn with the public URL, or else the request's origin. */
  absolute?: boolean;
  /** The document's schema, for the OpenAPI document (answers are sent pre-serialized). */
  schema?: z.ZodType;
  render(entry: CachedStatusPage, origin: string): string;
}

const pagePath = (slug: string) => `/status/${slug}`;

/** The request's own origin, for absolute links when no public URL is set; a bad Host is a 400. */
function requestOrigin(request: FastifyRequest): string {
  const origin = `${request.protocol}://${request.host}`;
  if (!URL.canParse(origin) || new URL(origin).origin !== origin)
    throw InvalidInputError.forField(
      "host",
      "the Host header is not a valid host; set VIGIL_PUBLIC_URL for absolute links",
    );
  return origin;
}

/** An incident feed: the page's incidents with absolute links to the page and to itself. */
function feedFormat(format: "atom" | "rss", mediaType: string): PublicFormat {
  return {
    contentType: `${mediaType}; charset=utf-8`,
    cors: true,
    absolute: true,
    render: (e, origin) =>
      renderIncidentFeed(e.data, {
        format,
        pageUrl: `${origin}${pagePath(e.page.slug)}`,
        feedUrl: `${origin}${pagePath(e.page.slug)}/feed.${format}`,
      }),
  };
}

/**
 * Every format, one entry each: the route suffix (after /status/:slug) and how to draw it. The
 * HTML page shows the Subscribe form when email subscriptions can be sent.
 */
const formats = (subscribe: boolean): Record<string, PublicFormat> => ({
  "": {
    contentType: "text/html; charset=utf-8",
    cors: false,
    render: (e) =>
      renderStatusPage(e.data, {
        basePath: pagePath(e.page.slug),
        now: new Date(e.builtAtMs),
        subscribe,
      }),
  },
  ".json": {
    contentType: "application/json; charset=utf-8",
    cors: true,
    schema: StatusPageData,
    render: (e) => JSON.stringify(e.data),
  },
  "/api/v2/summary.json": {
    contentType: "application/json; charset=utf-8",
    cors: true,
    schema: StatuspageSummary,
    absolute: true,
    render: (e, origin) =>
      JSON.stringify(toStatuspageSummary(e.data, `${origin}${pagePath(e.page.slug)}`)),
  },
  "/feed.atom": feedFormat("atom", "application/atom+xml"),
  "/feed.rss": feedFormat("rss", "application/rss+xml"),
});

/**
 * The public status page (docs/design.md §4): `/status/:slug` (HTML without script), `.json`, a
 * Statuspage-compatible `/api/v2/summary.json`, Atom and RSS feeds of incidents and an SVG badge.
 * No authentication; answers are cacheable (`Cache-Control`, `ETag`) and built at most once per
 * data version and 30 s, so a busy page costs one indexed read per request.
 */
export const publicStatusRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { reader } = deps.statusPages;
    // Absolute links (feeds, summary) use the configured public URL, else the request's origin.
    const configured = deps.config.publicUrl?.replace(/\/+$/, "");

    async function load(slug: string): Promise<CachedStatusPage> {
      const entry = await reader.bySlug(slug);
      if (!entry) throw new NotFoundError("Status page", slug);
      return entry;
    }

    const FORMATS = formats(deps.domain.subscribers.emailAvailable);
    for (const [suffix, format] of Object.entries(FORMATS)) {
      app.get(
        `/status/:slug${suffix}`,
        {
          schema: {
            tags,
            summary:
              suffix === ""
                ? "The public status page (HTML, no script)"
                : `The public status page as ${suffix}`,
            params: SlugParams,
            response: { 200: format.schema ?? z.string(), ...problems },
          },
        },
        async (request, reply) => {
          const entry = await load(request.params.slug);
          // Links drawn from the request's Host are neither kept nor shared (cache poisoning).
          const fromRequest = format.absolute === true && configured === undefined;
          const origin = fromRequest ? requestOrigin(request) : (configured ?? "");
          return sendDocument(
            request,
            reply,
            entry,
            { ...format, private: fromRequest },
            () => format.render(entry, origin),
            fromRequest ? undefined : suffix,
          );
        },
      );
    }

    app.get(
      "/status/:slug/badge.svg",
      {
        schema: {
          tags,
          summary: "A shields-style SVG badge of the page's state (?label=&style=)",
          params: SlugParams,
          querystring: BadgeQuery.strict(),
        },
      },
      async (request, reply) => {
        const entry = await load(request.params.slug);
        const { label, style } = request.query;
        const svg = { contentType: "image/svg+xml; charset=utf-8", cors: true };
        return sendDocument(
          request,
          reply,
          entry,
          svg,
          () =>
            renderStatusBadge(entry.data.page.status, {
              ...(label === undefined ? {} : { label }),
              ...(style === undefined ? {} : { style }),
            }),
          `badge|${label ?? ""}|${style ?? ""}`,
        );
      },
    );
  };
