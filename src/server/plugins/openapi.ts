import { readFileSync } from "node:fs";
import swagger, { type SwaggerTransformObject } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
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
    transform: jsonSchemaTransform,
    transformObject: withExamples,
  });
  // Assets are served from the installed package: nothing is fetched from a CDN.
  await app.register(swaggerUi, { routePrefix: "/docs", uiConfig: { validatorUrl: null } });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
