import { createHash } from "node:crypto";
import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { buildTqlCatalog } from "../../../tql/catalog.js";
import { sendRepresentation } from "../../representation.js";

/** The catalog's bytes, built once: it changes only with the server's code. */
interface Encoded {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

let encoded: Encoded | undefined;
function catalogBytes(): Encoded {
  if (encoded) return encoded;
  const identity = Buffer.from(JSON.stringify(buildTqlCatalog()));
  const hash = createHash("sha256").update(identity).digest("base64url").slice(0, 22);
  encoded = {
    etag: `"tql-${hash}"`,
    identity,
    br: brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
  return encoded;
}

const CACHE_SECONDS = 3600;

/** Sends the TQL catalog compressed as accepted, with an ETag (304 when it matches). */
export function sendCatalog(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const bytes = catalogBytes();
  reply.header("cache-control", `private, max-age=${CACHE_SECONDS}`);
  return sendRepresentation(request, reply, {
    etag: bytes.etag,
    contentType: "application/json; charset=utf-8",
    body: bytes.identity,
    encode: (encoding) => bytes[encoding],
  });
}
