import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { SESSION_COOKIE } from "./auth.js";

/** OpenAPI 3.1 generated from the routes' zod schemas, at /openapi.json, rendered at /docs. */
export async function useOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Vigil API",
        version,
        description:
          "Read API and TQL under /v1 (X-API-Key), dashboard management under /api (session cookie). Errors are application/problem+json.",
      },
      components: {
        securitySchemes: {
          apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
          session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  // Assets are served from the installed package: nothing is fetched from a CDN.
  await app.register(swaggerUi, { routePrefix: "/docs", uiConfig: { validatorUrl: null } });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
