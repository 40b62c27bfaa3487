import { readFileSync } from "node:fs";
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { Problem } from "../../contracts/pagination.js";
import { SESSION_COOKIE } from "./auth.js";

/**
 * Real 200 bodies per "METHOD /path", recorded by `npm run docs:examples`. Resolved from the
 * repository root so the same path works from src/ and from the compiled dist/.
 */
const EXAMPLES = JSON.parse(
  readFileSync(new URL("../../../src/server/openapi-examples.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

/** The part of an operation an example goes into (the document types differ per OpenAPI version). */
type ExampleTarget = Record<
  string,
  { responses?: Record<string, { content?: Record<string, { example?: unknown }> }> } | undefined
>;

/** Sets each recorded example as its operation's 200 application/json example. */
const withExamples: SwaggerTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input);
  const paths = (document.paths ?? {}) as Record<string, ExampleTarget | undefined>;
  for (const [key, example] of Object.entries(EXAMPLES)) {
    const [method = "", path = ""] = key.split(" ");
    const media =
      paths[path]?.[method.toLowerCase()]?.responses?.["200"]?.content?.["application/json"];
    if (media) media.example = example;
  }
  return document;
};

/** What each error status means, as the document says it. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input: `errors` names each parameter or field (an unknown query parameter too)",
  401: "No valid session or API key",
  403: "Authenticated, but without the permission or role this needs (or a cross-origin write)",
  404: "An id in the path names nothing the caller can see",
  409: "Conflicts with the current state",
  413: "The request body is over the size limit",
  414: "An id in the path is over 200 characters",
  415: "The request body's Content-Type is not accepted",
  422: "A valid query the engine could not run within its limits",
  429: "Rate limited: retry after `Retry-After` seconds",
  500: "Unexpected failure; the server log has the request id",
  503: "Temporarily unavailable: retry after `Retry-After` seconds",
};

/**
 * The error statuses any route of its kind can answer, whether or not its schema lists them:
 * every input can be invalid, a path id unknown or too long (maxParamLength), a body too large
 * or of the wrong type, a request unauthenticated, forbidden or (under /v1) rate limited or
 * refused while the telemetry store is busy.
 */
function sharedErrors(schema: FastifySchema, url: string, route: RouteOptions): number[] {
  const pathIds = /\/:\w/.test(url);
  const statuses = [500];
  if (pathIds || schema.querystring || schema.body) statuses.push(400);
  if (pathIds) statuses.push(404, 414);
  if (schema.body) statuses.push(413, 415);
  const api = url.startsWith("/api/");
  if (url.startsWith("/v1/") || url.startsWith("/webhooks/") || (api && !route.config?.public))
    statuses.push(401, 403);
  if (url.startsWith("/v1/") || route.config?.rateLimit) statuses.push(429);
  // The telemetry store refusing more reads (telemetry.maxPendingReads, maxReadWaitMs) or
  // shutting down.
  if (url.startsWith("/v1/")) statuses.push(503);
  return statuses;
}

/**
 * The zod transform, with the shared error statuses added to each route's responses and every
 * problem response documented as `application/problem+json` (RFC 9457), as it is sent.
 */
const withProblems: SwaggerTransform = (input) => {
  const { schema, url, route } = input;
  if (!schema || schema.hide) return jsonSchemaTransform(input);
  const responses: Record<string, unknown> = { ...(schema.response as object | undefined) };
  for (const status of sharedErrors(schema, url, route)) responses[status] ??= Problem;
  const problems = Object.keys(responses).filter((status) => responses[status] === Problem);
  const transformed = jsonSchemaTransform({ ...input, schema: { ...schema, response: responses } });
  const documented = transformed.schema.response as Record<string, unknown>;
  for (const status of problems)
    documented[status] = {
      description: ERROR_DESCRIPTIONS[Number(status)] ?? "Error",
      content: { "application/problem+json": { schema: documented[status] } },
    };
  const mediaType = route.config?.mediaType;
  if (mediaType)
    for (const [status, schema] of Object.entries(documented))
      if (!problems.includes(status))
        documented[status] = {
          description: (schema as { description?: string }).description ?? "Response",
          content: { [mediaType]: { schema } },
        };
  return transformed;
};

/**
 * The docs page loads only its own scripts, styles and /docs/json, and no page may frame it
 * (frame-ancestors; X-Frame-Options for older browsers). Swagger UI sets inline styles, which
 * cannot run script; inline scripts stay refused.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join("; ");

/** OpenAPI 3.1 generated from the routes' zod schemas, at /openapi.json, rendered at /docs. */
export async function useOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Vigil API",
        version,
        description:
          "Read API and TQL under /v1 (X-API-Key); dashboard management under /api and webhook endpoints under /webhooks (session cookie). Errors are application/problem+json.",
      },
      components: {
        securitySchemes: {
          apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
          session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE },
        },
      },
    },
    transform: withProblems,
    transformObject: withExamples,
  });
  // Assets are served from the installed package: nothing is fetched from a CDN.
  await app.register(async (docs) => {
    docs.addHook("onSend", async (_request, reply, payload) => {
      reply.header("content-security-policy", DOCS_CSP).header("x-frame-options", "DENY");
      return payload;
    });
    await docs.register(swaggerUi, { routePrefix: "/docs", uiConfig: { validatorUrl: null } });
  });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
