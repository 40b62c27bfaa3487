import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  AlertRuleIdParam,
  createRule,
  deleteRule,
  getRule,
  ListEventsQuery,
  listRuleEvents,
  listRules,
  muteRule,
  unmuteRule,
  updateRule,
} from "../../../alerts/alert-rules.js";
import { listAlertPresets } from "../../../alerts/presets.js";
import { previewDraft, previewRule } from "../../../alerts/rule-preview.js";
import type { AppDeps } from "../../../composition/app-deps.js";
import {
  AlertEventView,
  AlertPresetView,
  AlertPreviewView,
  AlertRuleView,
  CreateAlertRuleInput,
  MuteAlertRuleInput,
  UpdateAlertRuleInput,
} from "../../../contracts/alerts.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";
import { ProjectParams } from "./project-routes.js";

const RuleParams = ProjectParams.extend({ ruleId: AlertRuleIdParam });
const tags = ["alert-rules"];
const read = { 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem };
/**
 * Previews run a query: the TQL limits apply (422 past them, 429 when the project or its
 * organization is busy, 503 when the engine gave no turn within the time limit).
 */
const run = { ...write, 422: Problem, 429: Problem, 503: Problem };
/** Saving also refuses a name another rule of the project has (409 naming `name`). */
const save = { ...run, 409: Problem };

/** /api/projects/:projectId/alert-rules… (docs/design.md §4): alert rules, mute, preview and events. */
export const alertRuleRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const ref = (request: FastifyRequest & { params: z.infer<typeof RuleParams> }) => ({
      ctx: userCtx(deps.domain, request),
      projectId: request.params.projectId,
      ruleId: request.params.ruleId,
    });
    const base = "/projects/:projectId/alert-rules";

    app.get(
      base,
      {
        schema: {
          tags,
          summary: "Alert rules of a project with their state",
          params: ProjectParams,
          querystring: PaginationQuery,
          response: { 200: listOf(AlertRuleView), ...read },
        },
      },
      async (request) =>
        listRules({
          ctx: userCtx(deps.domain, request),
          projectId: request.params.projectId,
          query: request.query,
        }),
    );

    app.post(
      base,
      {
        schema: {
          tags,
          summary:
            "Create an alert rule (members and above): a TQL query returning `value`, or a preset",
          params: ProjectParams,
          body: CreateAlertRuleInput,
          response: { 201: AlertRuleView, ...save },
        },
      },
      async (request, reply) => {
        const rule = await createRule({
          ctx: userCtx(deps.domain, request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(rule);
      },
    );

    app.post(
      `${base}/preview`,
      {
        schema: {
          tags,
          summary: "Evaluate a draft rule now without saving or recording anything",
          params: ProjectParams,
          body: CreateAlertRuleInput,
          response: { 200: AlertPreviewView, ...run },
        },
      },
      async (request) =>
        previewDraft({
          ctx: userCtx(deps.domain, request),
          projectId: request.params.projectId,
          input: request.body,
        }),
    );

    app.get(
      `${base}/presets`,
      {
        schema: {
          tags,
          summary:
            "The presets a rule can use instead of a query, with their parameters as JSON Schema",
          params: ProjectParams,
          querystring: PaginationQuery,
          response: { 200: listOf(AlertPresetView), ...read },
        },
      },
      async (request) =>
        paginate(
          await listAlertPresets({
            ctx: userCtx(deps.domain, request),
            projectId: request.params.projectId,
          }),
          request.query,
        ),
    );

    app.get(
      `${base}/:ruleId`,
      {
        schema: {
          tags,
          summary: "One alert rule",
          params: RuleParams,
          response: { 200: AlertRuleView, ...read },
        },
      },
      async (request) => getRule(ref(request)),
    );

    app.patch(
      `${base}/:ruleId`,
      {
        schema: {
          tags,
          summary: "Change a rule; the result is validated again (its query too), its state kept",
          params: RuleParams,
          body: UpdateAlertRuleInput,
          response: { 200: AlertRuleView, ...save },
        },
      },
      async (request) => updateRule({ ...ref(request), input: request.body }),
    );

    app.delete(
      `${base}/:ruleId`,
      {
        schema: {
          tags,
          summary: "Delete a rule with its series and events",
          params: RuleParams,
          response: { 204: z.null(), ...write },
        },
      },
      async (request, reply) => {
        await deleteRule(ref(request));
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${base}/:ruleId/mute`,
      {
        schema: {
          tags,
          summary: "Mute until a time, or indefinitely: still evaluated and recorded, not notified",
          params: RuleParams,
          body: MuteAlertRuleInput.nullish(),
          response: { 200: AlertRuleView, ...write },
        },
      },
      async (request) => muteRule({ ...ref(request), input: request.body ?? {} }),
    );

    app.post(
      `${base}/:ruleId/unmute`,
      {
        schema: {
          tags,
          summary: "Unmute: notifications resume",
          params: RuleParams,
          response: { 200: AlertRuleView, ...write },
        },
      },
      async (request) => unmuteRule(ref(request)),
    );

    app.post(
      `${base}/:ruleId/preview`,
      {
        schema: {
          tags,
          summary:
            "Evaluate the saved rule now without recording: each series, its value and the state it would take",
          params: RuleParams,
          response: { 200: AlertPreviewView, ...run },
        },
      },
      async (request) => previewRule(ref(request)),
    );

    app.get(
      `${base}/:ruleId/events`,
      {
        schema: {
          tags,
          summary: "The rule's events (pending, fired, resolved, …), newest first",
          params: RuleParams,
          querystring: ListEventsQuery,
          response: { 200: listOf(AlertEventView), 400: Problem, ...read },
        },
      },
      async (request) => listRuleEvents({ ...ref(request), query: request.query }),
    );
  };
