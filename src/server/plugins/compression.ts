import { constants as zlibConstants } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Bodies smaller than this go as they are: a packet or two either way (docs/deploy.md). */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * Brotli quality and gzip level of answers compressed per request: 4 and 6 cost about the
 * same CPU a byte and brotli's answer is the smaller (bench:waterfall, docs/deploy.md); the
 * higher qualities cost several times the CPU for a few percent.
 */
export const DYNAMIC_BROTLI_QUALITY = 4;
export const DYNAMIC_GZIP_LEVEL = 6;

/**
 * Text answers: HTML, JSON (problem+json too), XML feeds, SVG, CSS and scripts, plain text
 * (metrics). Never text/event-stream, which must reach the client as each event is written.
 */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|[/+](?:json|xml)\s*(?:;|$)|^application\/javascript|^image\/svg\+xml/i;

export const isCompressible = (contentType: string): boolean => COMPRESSIBLE.test(contentType);

/** The size of a buffered body; undefined for a stream, whose size is not known here. */
function bodySize(payload: unknown): number | undefined {
  if (typeof payload === "string") return Buffer.byteLength(payload);
  if (Buffer.isBuffer(payload)) return payload.length;
  return undefined;
}

/** A Content-Length header's value, when the reply declares one. */
function declaredLength(header: unknown): number | undefined {
  const length = Number(header);
  return header === undefined || !Number.isFinite(length) ? undefined : length;
}

/**
 * Compresses every text answer of the app's routes as the client's Accept-Encoding allows
 * (br, else gzip; @fastify/compress), from MIN_COMPRESS_BYTES up. An answer that already has a
 * Content-Encoding (a status page's or the TQL catalog's bytes compressed once per build, a
 * precompressed dashboard asset) goes untouched. Request bodies are not inflated here: OTLP
 * reads its own gzip (ingest/otlp/codec.ts), under its own size limits.
 */
export async function useCompression(app: FastifyInstance): Promise<void> {
  // Vary on the identity answers too, so that a shared cache never hands the bytes kept for a
  // client without Accept-Encoding to one with it, or the other way round.
  app.addHook("onSend", async (request, reply, payload) => {
    if (payload === null || payload === undefined || reply.hasHeader("content-encoding")) return;
    const type = reply.getHeader("content-type");
    if (typeof type !== "string" || !isCompressible(type)) return;
    const size = bodySize(payload) ?? declaredLength(reply.getHeader("content-length"));
    if (size !== undefined && size < MIN_COMPRESS_BYTES) {
      // A small file sent as a stream (a dashboard chunk under 1 KB, index.html): the plugin
      // checks the threshold on buffered bodies only; its opt-out header keeps it as it is.
      if (bodySize(payload) === undefined) request.headers["x-no-compression"] = "small";
      return;
    }
    const vary = reply.getHeader("vary");
    const current = Array.isArray(vary) ? vary.join(", ") : String(vary ?? "");
    if (!/\baccept-encoding\b/i.test(current))
      reply.header("vary", current ? `${current}, accept-encoding` : "accept-encoding");
  });
  await app.register(compress, {
    encodings: ["br", "gzip"],
    threshold: MIN_COMPRESS_BYTES,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
    zlibOptions: { level: DYNAMIC_GZIP_LEVEL },
    customTypes: isCompressible,
    globalDecompression: false,
  });
}
