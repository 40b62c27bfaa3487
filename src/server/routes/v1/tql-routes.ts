import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { Problem } from "../../../contracts/pagination.js";
import { TqlCatalog, TqlRequest, TqlResult } from "../../../contracts/tql.js";
import { TQL_MAX_RESULT_ROWS } from "../../../contracts/tql-dialect.js";
import { runTqlQuery } from "../../../tql/tql-queries.js";
import { requirePermission } from "../../plugins/auth.js";
import { keyReader } from "./read-route.js";
import { sendCatalog } from "./tql-schema.js";

/** POST /v1/tql: one project-confined SELECT; GET /v1/tql/schema: what a query may name. */
export const tqlRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/tql",
      {
        preHandler: requirePermission("tql:query"),
        schema: {
          tags: ["v1"],
          summary: "Run a TQL query",
          description:
            "Runs one SELECT in TQL, ClickHouse SQL over `traces`, `logs`, `metrics`, `ai_spans`, " +
            "`http_requests` and `error_groups`, confined to the API key's project. At most " +
            `${TQL_MAX_RESULT_ROWS.toLocaleString("en-US")} rows come back; \`truncated\` says when there were more. ` +
            "Syntax and analysis errors are 400 with `position: {line, column}`; queries over the " +
            "time, memory or rows-read limits are 422 (`query_timeout`, `query_limit_exceeded`). " +
            "A project has at most `tql.maxConcurrentPerProject` queries running or waiting (default " +
            "2) and an organization `tql.maxConcurrentPerOrganization` (default 3); one more is 429 " +
            "`rate_limited` with `Retry-After`, as is the per-key request limit. Queries take turns " +
            "between organizations and projects, and the wait counts in the time limit: one whose " +
            "whole limit passed while it waited is 503 with `Retry-After`. `parameters` gives the " +
            "values of the query's `{name:Type}` placeholders (and of the time window's `{from}`, " +
            "`{to}`, `{bucket_seconds}` that `$__timeFilter(col)` and `$__timeInterval(col)` use), " +
            "bound by the engine; a missing or unfit value is 400 naming `parameters.<name>`. " +
            "See docs/tql.md.",
          security: [{ apiKey: [] }],
          body: TqlRequest,
          response: {
            200: TqlResult,
            400: Problem,
            401: Problem,
            403: Problem,
            413: Problem,
            422: Problem,
            429: Problem,
            500: Problem,
            503: Problem,
          },
        },
      },
      async (request) =>
        runTqlQuery({
          ...keyReader(deps.domain, request),
          query: request.body.query,
          parameters: request.body.parameters,
        }),
    );

    app.get(
      "/tql/schema",
      {
        preHandler: requirePermission("tql:query"),
        schema: {
          tags: ["v1"],
          summary: "The TQL schema: tables, columns, functions and keywords",
          description:
            "What a TQL query may name, generated from the definitions the compiler checks queries " +
            "against (the same as docs/tql-tables.md and docs/tql-functions.md): the six tables with " +
            "their columns and ClickHouse types, every allowed function with its category and " +
            "arguments, the aggregate combinators and the reserved words. Editors complete and " +
            "highlight from it. It changes only with the server's version: responses carry an " +
            "`ETag` (send `If-None-Match` for a 304) and may be cached for an hour.",
          security: [{ apiKey: [] }],
          response: { 200: TqlCatalog, 401: Problem, 403: Problem, 429: Problem },
        },
      },
      async (request, reply) => sendCatalog(request, reply),
    );
  };
