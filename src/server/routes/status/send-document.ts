import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type CachedStatusPage, STATUS_PAGE_MAX_AGE_MS } from "../../../status-pages/reader.js";
import { type Encoding, sendRepresentation } from "../../representation.js";

// Nothing on a public page runs script or loads from elsewhere but the page's own logo; its one
// form (Subscribe) posts to this server only.
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; base-uri 'none'; form-action 'self'";

/** How a document of a status page is sent. */
export interface Delivery {
  contentType: string;
  /** Readable from any origin (the JSON, the Statuspage summary, feeds, the badge). */
  cors: boolean;
  /** Kept out of shared caches: links drawn from the request's Host, or an API key's answer. */
  private?: boolean | undefined;
}

const MIN_COMPRESS_BYTES = 1024;
const ENCODERS: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (body) => gzipSync(body),
};

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
  const maxAge = Math.round(STATUS_PAGE_MAX_AGE_MS / 1000);
  reply
    .header(
      "cache-control",
      `${delivery.private ? "private" : "public"}, max-age=${maxAge}, stale-while-revalidate=${maxAge}`,
    )
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", CSP)
    .header("referrer-policy", "no-referrer");
  if (delivery.cors) reply.header("access-control-allow-origin", "*");
  // A 50-component page is ~1.4 MB of HTML and ~25 KB gzipped.
  return sendRepresentation(request, reply, {
    etag: entry.etag,
    contentType: delivery.contentType,
    body,
    encode: (encoding) => memo(encoding, () => ENCODERS[encoding](body)),
    minCompressBytes: MIN_COMPRESS_BYTES,
  });
}
