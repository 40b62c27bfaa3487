import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import { Problem } from "../../../contracts/pagination.js";
import { apiKeyCtx } from "../../request-context.js";

const WhoAmI = z
  .object({
    keyId: z.string(),
    projectId: z.string(),
    permissions: z.array(z.string()),
  })
  .meta({ id: "WhoAmI" });

/** Introspection of the calling key: lets SDKs and scripts check a key before using it. */
export const keyRoutes =
  (deps: DomainDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/whoami",
      {
        schema: {
          tags: ["v1"],
          summary: "The API key making this request: its project and permissions",
          security: [{ apiKey: [] }],
          response: { 200: WhoAmI, 401: Problem, 429: Problem },
        },
      },
      async (request) => {
        const { actor } = apiKeyCtx(deps, request);
        return {
          keyId: actor.keyId,
          projectId: actor.projectId,
          permissions: [...actor.permissions],
        };
      },
    );
  };
