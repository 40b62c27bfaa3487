import { createHash } from "node:crypto";
import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { buildTqlCatalog } from "../../../tql/catalog.js";
import { sendRepresentation } from "../../representation.js";

const Column = z.object({
  name: z.string(),
  type: z.string().describe("ClickHouse type name"),
  description: z.string(),
});

const Table = z.object({
  name: z.string(),
  description: z.string(),
  columns: z.array(Column).describe("In table order; the internal project column is not listed"),
});

const FunctionEntry = z.object({
  name: z.string().describe("The name to call, exactly as written (see caseInsensitive)"),
  category: z.string().describe("aggregate, date, string, regex, array, map, json, math, …"),
  aggregate: z.boolean(),
  arguments: z
    .string()
    .describe("Arguments a call takes: `2`, `1–3`, `1+`; parametric aggregates `(0–1)(1)`"),
  minArgs: z.number().int(),
  maxArgs: z.number().int().nullable().describe("null when variadic"),
  params: z
    .object({ min: z.number().int(), max: z.number().int().nullable() })
    .nullable()
    .describe("Parametric aggregates such as quantile(0.95)(x): bounds of the parameter list"),
  lambda: z.boolean().describe("The first argument may be a lambda (arrayMap(x -> …, arr))"),
  caseInsensitive: z.boolean(),
  description: z.string(),
});

const Combinator = z.object({
  suffix: z.string().describe("Appended to an aggregate's name: countIf, sumArray"),
  extraArgs: z.number().int(),
  example: z.string(),
  description: z.string(),
});

export const TqlSchema = z
  .object({
    tables: z.array(Table),
    functions: z.array(FunctionEntry).describe("Every function a query may call, in docs order"),
    combinators: z.array(Combinator),
    keywords: z.array(z.string()).describe("Reserved words (upper case)"),
  })
  .meta({ id: "TqlSchema" });

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
