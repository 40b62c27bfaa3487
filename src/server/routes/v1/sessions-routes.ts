import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import {
  BREAKDOWN_LIMIT,
  SessionDetail,
  SessionSummary,
  TIMELINE_LIMIT,
  Traffic,
} from "../../../contracts/browser-sessions.js";
import { listOf } from "../../../contracts/pagination.js";
import {
  getSession,
  ListSessionsQuery,
  listSessions,
  SessionIdParam,
} from "../../../read/browser-sessions.js";
import { TrafficQuery, trafficReport } from "../../../read/traffic.js";
import { keyReader, readRoute } from "./read-route.js";

/** GET /v1/sessions, /v1/sessions/:sessionId and /v1/traffic. */
export const sessionsRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const reader = (request: FastifyRequest) => keyReader(deps.domain, request);
    app.get(
      "/sessions",
      readRoute({
        permission: "sessions:read",
        summary: "User sessions, newest first by start",
        description:
          "One summary per `session.id`, merged from everything the session sent. Filters combine " +
          "with AND. With `time_range`/`from`/`to`, a session is listed when it overlaps the window " +
          "(started before its end and was last seen at or after its start); without them every " +
          "retained session is listed.",
        querystring: ListSessionsQuery,
        response: listOf(SessionSummary),
      }),
      async (request) => listSessions({ ...reader(request), ...request.query }),
    );
    app.get(
      "/sessions/:sessionId",
      readRoute({
        permission: "sessions:read",
        summary: "One session with the timeline of its spans, AI spans, logs and errors",
        description:
          "The timeline is in time order (span start, log time, exception event time); entries " +
          "at the same nanosecond come as span, ai, log, error, then by id. Every span appears " +
          "once: as `ai` when it carries gen_ai.* attributes, else as `span`. One error entry is " +
          "added per error occurrence: an exception event, or an error or fatal log (after its " +
          "`log` entry); an exception event and a log of the same span, type and message are one " +
          "entry (the exception's, with the log's `logId`). A span with status error in which no " +
          "error was recorded gets an entry of its own. At most " +
          `${TIMELINE_LIMIT} entries: the earliest, with \`truncated\` set when more exist.`,
        params: z.object({ sessionId: SessionIdParam }),
        response: SessionDetail,
      }),
      async (request) => getSession({ ...reader(request), sessionId: request.params.sessionId }),
    );
    app.get(
      "/traffic",
      readRoute({
        permission: "sessions:read",
        summary: "Traffic: sessions by browser, OS, device, country, referrer and page, over time",
        description:
          "Over the sessions overlapping the window (default: the last 24 hours): totals, " +
          `breakdowns (at most ${BREAKDOWN_LIMIT} entries each, with shares of all sessions) and ` +
          "active and started sessions per time bucket.",
        querystring: TrafficQuery,
        response: Traffic,
      }),
      async (request) => trafficReport({ ...reader(request), ...request.query }),
    );
  };
