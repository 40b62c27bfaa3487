import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import { listOf } from "../../../contracts/pagination.js";
import {
  HistoryForm,
  StatusPageCompactData,
  StatusPageData,
  StatusPageSummary,
} from "../../../contracts/status-page-data.js";
import { Slug } from "../../../contracts/status-pages.js";
import { compactStatusPageData } from "../../../status-pages/public/compact-history.js";
import {
  ListStatusPagesQuery,
  readStatusPageData,
  readStatusPages,
} from "../../../status-pages/status-page-reads.js";
import { apiKeyCtx } from "../../request-context.js";
import { sendDocument } from "../status/send-document.js";
import { readRoute } from "./read-route.js";

const PAYLOAD_DELIVERY = {
  contentType: "application/json; charset=utf-8",
  cors: false,
  private: true,
};

/** GET /v1/status-pages and /v1/status-pages/:slug/data: the key's organization's pages. */
export const statusPagesRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/status-pages",
      readRoute({
        permission: "status_pages:read",
        summary: "Status pages of the key's organization, with their state",
        description:
          "Filters: status (operational, degraded, down); time_range/from/to keep the pages last changed in the window: their updatedAt, the time of their last change, is in it (a page changed in the window and again after it is left out; a check that only moves a day's uptime counts does not change it). Sorts: updated_at (default), title, slug, status.",
        querystring: ListStatusPagesQuery,
        response: listOf(StatusPageSummary.meta({ id: "StatusPageSummary" })),
      }),
      async (request) =>
        readStatusPages({ ctx: apiKeyCtx(deps.domain, request), query: request.query }),
    );
    app.get(
      "/status-pages/:slug/data",
      readRoute({
        permission: "status_pages:read",
        summary: "A status page's public payload: services, 90-day history, incidents, maintenance",
        description:
          "The same payload as the public /status/:slug.json, for a page of the key's organization. Not paginated. Each component's history comes in columns (history=compact, the default: a letter, a number or two a day) or as an object a day (history=days, as /status/:slug.json gives it).",
        params: z.object({ slug: Slug }),
        querystring: z.strictObject({ history: HistoryForm.default("compact") }),
        response: z.union([
          StatusPageCompactData.meta({ id: "StatusPageCompactData" }),
          StatusPageData.meta({ id: "StatusPageData" }),
        ]),
      }),
      async (request, reply) => {
        const entry = await readStatusPageData({
          ctx: apiKeyCtx(deps.domain, request),
          slug: request.params.slug,
        });
        // Serialized once per build and form (history=days: the same bytes as /status/:slug.json);
        // private: a key's answer.
        const compact = request.query.history === "compact";
        return sendDocument(
          request,
          reply,
          entry,
          PAYLOAD_DELIVERY,
          () => JSON.stringify(compact ? compactStatusPageData(entry.data) : entry.data),
          compact ? ".json?history=compact" : ".json",
        );
      },
    );
  };
