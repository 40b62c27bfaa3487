import { Negotiator } from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";

export type Encoding = "br" | "gzip";

/** br, else gzip, as the client's Accept-Encoding allows (q=0 refuses); null for identity. */
const encodings = new Negotiator<Encoding>({ supportedValues: ["br", "gzip"] });

/** Whether an If-None-Match names this tag (a list, weak tags, or `*`). */
export function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === etag || tag === "*");
}

export interface Representation {
  /** The strong validator of the identity bytes, quoted. */
  etag: string;
  contentType: string;
  body: Buffer;
  /** The body in an encoding: made once by the caller (kept per build, or built at start). */
  encode(encoding: Encoding): Buffer;
  /** Bodies smaller than this go as they are. */
  minCompressBytes?: number;
}

/**
 * Sends bytes kept by the caller with validators and content negotiation: the encoding the
 * client accepts (each its own representation, with its own ETag), a 304 for a matching
 * If-None-Match, `Vary: Accept-Encoding`. Caching and other headers are the caller's.
 */
export function sendRepresentation(
  request: FastifyRequest,
  reply: FastifyReply,
  representation: Representation,
): FastifyReply {
  const { body, etag } = representation;
  const accepted = request.headers["accept-encoding"];
  const encoding =
    accepted && body.length >= (representation.minCompressBytes ?? 0)
      ? encodings.negotiate(accepted)
      : null;
  const tag = encoding ? `${etag.slice(0, -1)}-${encoding}"` : etag;
  reply.header("etag", tag).header("vary", "accept-encoding");
  if (matches(request.headers["if-none-match"], tag)) return reply.code(304).send();
  reply.type(representation.contentType);
  if (encoding === null) return reply.send(body);
  reply.header("content-encoding", encoding);
  return reply.send(representation.encode(encoding));
}
