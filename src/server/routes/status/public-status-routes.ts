import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import { Negotiator } from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../deps.js";
import { InvalidInputError, NotFoundError } from "../../../lib/errors.js";
import { Slug } from "../../../status-pages/definition.js";
import { StatusPageData } from "../../../status-pages/model.js";
import { BadgeQuery, renderStatusBadge } from "../../../status-pages/public/badge.js";
import { renderIncidentFeed } from "../../../status-pages/public/feed.js";
import { renderStatusPage } from "../../../status-pages/public/render-page.js";
import {
  StatuspageSummary,
  toStatuspageSummary,
} from "../../../status-pages/public/statuspage-summary.js";
import { type CachedStatusPage, STATUS_PAGE_MAX_AGE_MS } from "../../../status-pages/reader.js";
import { Problem } from "../../problem.js";

const SlugParams = z.object({ slug: Slug });
const tags = ["status"];
const problems = { 400: Problem, 404: Problem };

// Nothing on a public page runs script or loads from elsewhere but the page's own logo.
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; base-uri 'none'; form-action 'none'";

/** How an answer is sent: its content type, and whether any origin may read it. */
interface Delivery {
  contentType: string;
  /** Readable from any origin (the JSON, the Statuspage summary, feeds, the badge). */
  cors: boolean;
  /** Kept out of shared caches: links drawn from the request's Host would poison them. */
  private?: boolean | undefined;
}

/** A format of the public page: how it is sent and how it is drawn from the payload. */
interface PublicFormat extends Delivery {
  /** Its links are absolute: drawn with the public URL, or else the request's origin. */
  absolute?: boolean;
  /** The document's schema, for the OpenAPI document (answers are sent pre-serialized). */
  schema?: z.ZodType;
  render(entry: CachedStatusPage, origin: string): string;
}

const pagePath = (slug: string) => `/status/${slug}`;

const MIN_COMPRESS_BYTES = 1024;
const ENCODERS = {
  br: (text: string) =>
    brotliCompressSync(text, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (text: string) => gzipSync(text),
} as const;

/** Whether an If-None-Match names this tag (a list, weak tags, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === etag || tag === "*");
}

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

/** br, else gzip, as the client's Accept-Encoding allows (q=0 refuses); null for identity. */
const encodings = new Negotiator<keyof typeof ENCODERS>({ supportedValues: ["br", "gzip"] });

/** Every format, one entry each: the route suffix (after /status/:slug) and how to draw it. */
const FORMATS: Record<string, PublicFormat> = {
  "": {
    contentType: "text/html; charset=utf-8",
    cors: false,
    render: (e) =>
      renderStatusPage(e.data, { basePath: pagePath(e.page.slug), now: new Date(e.builtAtMs) }),
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
  "/feed.atom": {
    contentType: "application/atom+xml; charset=utf-8",
    cors: true,
    absolute: true,
    render: (e, origin) =>
      renderIncidentFeed(e.data, {
        format: "atom",
        pageUrl: `${origin}${pagePath(e.page.slug)}`,
        feedUrl: `${origin}${pagePath(e.page.slug)}/feed.atom`,
      }),
  },
  "/feed.rss": {
    contentType: "application/rss+xml; charset=utf-8",
    cors: true,
    absolute: true,
    render: (e, origin) =>
      renderIncidentFeed(e.data, {
        format: "rss",
        pageUrl: `${origin}${pagePath(e.page.slug)}`,
        feedUrl: `${origin}${pagePath(e.page.slug)}/feed.rss`,
      }),
  },
};

/**
 * The public status page (DESIGN §4): `/status/:slug` (HTML without script), `.json`, a
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

    /**
     * Sends a render with validators (a matching If-None-Match gets a 304), compressed as the
     * client accepts. With a `key`, the render and its compressed forms are made once per build;
     * without one (links drawn from the request's Host), for this request only.
     */
    function send(
      request: FastifyRequest,
      reply: FastifyReply,
      entry: CachedStatusPage,
      format: Delivery,
      render: () => string,
      key: string | undefined,
    ) {
      const memo = <T extends string | Buffer>(name: string, make: () => T): T =>
        key === undefined ? make() : entry.memo(`${key}|${name}`, make);
      const text = memo("", render);
      const accepted = request.headers["accept-encoding"];
      const negotiated = accepted ? encodings.negotiate(accepted) : null;
      // A 50-component page is ~1.4 MB of HTML and ~25 KB gzipped: compressed once per build.
      const encoding = text.length < MIN_COMPRESS_BYTES ? null : negotiated;
      // Each encoding is its own representation, with its own validator.
      const etag = encoding ? `${entry.etag.slice(0, -1)}-${encoding}"` : entry.etag;
      const maxAge = Math.round(STATUS_PAGE_MAX_AGE_MS / 1000);
      reply
        .header(
          "cache-control",
          `${format.private ? "private" : "public"}, max-age=${maxAge}, stale-while-revalidate=${maxAge}`,
        )
        .header("etag", etag)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", CSP)
        .header("referrer-policy", "no-referrer")
        .header("vary", "accept-encoding");
      if (format.cors) reply.header("access-control-allow-origin", "*");
      if (matches(request.headers["if-none-match"], etag)) return reply.code(304).send();
      reply.type(format.contentType);
      if (encoding === null) return reply.send(text);
      reply.header("content-encoding", encoding);
      return reply.send(memo(encoding, () => ENCODERS[encoding](text)));
    }

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
          return send(
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
        return send(
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
