import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import { Negotiator } from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type CachedStatusPage, STATUS_PAGE_MAX_AGE_MS } from "../../../status-pages/reader.js";

// Nothing on a public page runs script or loads from elsewhere but the page's own logo.
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; base-uri 'none'; form-action 'none'";

/** How a document of a status page is sent. */
export interface Delivery {
  contentType: string;
  /** Readable from any origin (the JSON, the Statuspage summary, feeds, the badge). */
  cors: boolean;
  /** Kept out of shared caches: links drawn from the request's Host, or an API key's answer. */
  private?: boolean | undefined;
}

const MIN_COMPRESS_BYTES = 1024;
const ENCODERS = {
  br: (body: Buffer) =>
    brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (body: Buffer) => gzipSync(body),
} as const;

/** br, else gzip, as the client's Accept-Encoding allows (q=0 refuses); null for identity. */
const encodings = new Negotiator<keyof typeof ENCODERS>({ supportedValues: ["br", "gzip"] });

/** Whether an If-None-Match names this tag (a list, weak tags, or `*`). */
export function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === etag || tag === "*");
}

/**
 * Sends a document drawn from a cached page build, with validators (a matching If-None-Match
 * gets a 304) and compressed as the client accepts. With a `key`, the UTF-8 bytes and their
 * compressed forms are made once per build, so a request costs a lookup and a socket write;
 * without one (links drawn from the request's Host), they are made for this request only.
 */
export function sendDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CachedStatusPage,
  delivery: Delivery,
  render: () => string,
  key: string | undefined,
): FastifyReply {
  const memo = (name: string, make: () => Buffer): Buffer =>
    key === undefined ? make() : entry.memo(`${key}|${name}`, make);
  const body = memo("", () => Buffer.from(render()));
  const accepted = request.headers["accept-encoding"];
  // A 50-component page is ~1.4 MB of HTML and ~25 KB gzipped.
  const encoding =
    accepted && body.length >= MIN_COMPRESS_BYTES ? encodings.negotiate(accepted) : null;
  // Each encoding is its own representation, with its own validator.
  const etag = encoding ? `${entry.etag.slice(0, -1)}-${encoding}"` : entry.etag;
  const maxAge = Math.round(STATUS_PAGE_MAX_AGE_MS / 1000);
  reply
    .header(
      "cache-control",
      `${delivery.private ? "private" : "public"}, max-age=${maxAge}, stale-while-revalidate=${maxAge}`,
    )
    .header("etag", etag)
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", CSP)
    .header("referrer-policy", "no-referrer")
    .header("vary", "accept-encoding");
  if (delivery.cors) reply.header("access-control-allow-origin", "*");
  if (matches(request.headers["if-none-match"], etag)) return reply.code(304).send();
  reply.type(delivery.contentType);
  if (encoding === null) return reply.send(body);
  reply.header("content-encoding", encoding);
  return reply.send(memo(encoding, () => ENCODERS[encoding](body)));
}
