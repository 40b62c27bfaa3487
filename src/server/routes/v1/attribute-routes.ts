import type { FastifyRequest, preHandlerHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireKeyPermission } from "../../../auth/api-keys.js";
import type { AppDeps } from "../../../composition/app-deps.js";
import {
  AttributeFieldList,
  AttributeValueList,
  SOURCE_PERMISSIONS,
} from "../../../contracts/attributes.js";
import type { ExploreSource } from "../../../contracts/explore-filters.js";
import { UnauthorizedError } from "../../../lib/domain-errors.js";
import {
  AttributeFieldsQuery,
  AttributeValuesQuery,
  attributeFields,
  attributeValues,
} from "../../../read/attributes.js";
import { keyReader, readRoute } from "./read-route.js";

const PERMISSIONS =
  "The key needs the permission of the source asked about: traces:read, logs:read, or infra:read for metrics.";

/**
 * Reading a source's catalog takes what reading that source takes (SOURCE_PERMISSIONS). It runs
 * after validation, so `source` is one of the three.
 */
const sourcePermission: preHandlerHookHandler = async (request: FastifyRequest) => {
  if (!request.apiKey) throw new UnauthorizedError("Missing X-API-Key header");
  const { source } = request.query as { source: ExploreSource };
  requireKeyPermission(request.apiKey, SOURCE_PERMISSIONS[source]);
};

/**
 * readRoute's shape (schema, problem responses, OpenAPI) with the source's permission in place
 * of the one it was given.
 */
const bySource = <R extends ReturnType<typeof readRoute>>(route: R): R => ({
  ...route,
  preHandler: sourcePermission,
});

/** GET /v1/attributes and /v1/attributes/values: the attribute catalog (docs/explore.md). */
export const attributeRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/attributes",
      bySource(
        readRoute({
          permission: "traces:read",
          summary: "Fields of spans, logs or metric points seen in the window, most frequent first",
          description:
            "From the attribute catalog kept at ingestion: every `attributes.<key>`, `resource.<key>` " +
            "and the source's low-cardinality columns, with how many rows carried them and whether " +
            "their values are numbers. Counted per UTC day: the window read is the whole days the one " +
            `asked for touches (default the last 7 days). ${PERMISSIONS}`,
          querystring: AttributeFieldsQuery,
          response: AttributeFieldList,
        }),
      ),
      async (request) => attributeFields({ ...keyReader(deps.domain, request), ...request.query }),
    );
    app.get(
      "/attributes/values",
      bySource(
        readRoute({
          permission: "traces:read",
          summary: "Values of one field seen in the window, most frequent first",
          description:
            "From the attribute catalog: values up to 256 characters (longer ones are not kept). `q` " +
            `keeps the values containing it, case-insensitively. ${PERMISSIONS}`,
          querystring: AttributeValuesQuery,
          response: AttributeValueList,
        }),
      ),
      async (request) => attributeValues({ ...keyReader(deps.domain, request), ...request.query }),
    );
  };
