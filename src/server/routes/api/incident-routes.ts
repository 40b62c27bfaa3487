import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import type { AppDeps } from "../../../composition/app-deps.js";
import {
  AcknowledgeIncidentInput,
  AssignIncidentInput,
  CreateIncidentInput,
  IncidentCommentInput,
  IncidentDetailView,
  IncidentNoteInput,
  IncidentUpdateInput,
  IncidentView,
  UpdateIncidentInput,
} from "../../../contracts/incidents.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import { acknowledgeIncident, assignIncident } from "../../../incidents/incident-response.js";
import {
  commentOnIncident,
  createIncident,
  getIncident,
  IncidentIdParam,
  ListIncidentsQuery,
  listIncidents,
  postIncidentUpdate,
  reopenIncident,
  resolveIncident,
  updateIncident,
} from "../../../incidents/incidents.js";
import { userCtx } from "../../request-context.js";
import { ProjectParams } from "./project-routes.js";

const IncidentParams = ProjectParams.extend({ incidentId: IncidentIdParam });
const tags = ["incidents"];
const read = { 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem, 409: Problem };

/** /api/projects/:projectId/incidents… (docs/design.md §4): incidents opened by hand, monitors and alerts. */
export const incidentRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const ref = (request: FastifyRequest & { params: z.infer<typeof IncidentParams> }) => ({
      ctx: userCtx(deps.domain, request),
      projectId: request.params.projectId,
      incidentId: request.params.incidentId,
    });

    app.get(
      "/projects/:projectId/incidents",
      {
        schema: {
          tags,
          summary: "Incidents of a project, newest first (filters: status, severity, source)",
          params: ProjectParams,
          querystring: ListIncidentsQuery,
          response: { 200: listOf(IncidentView), 400: Problem, ...read },
        },
      },
      async (request) =>
        listIncidents({
          ctx: userCtx(deps.domain, request),
          projectId: request.params.projectId,
          query: request.query,
        }),
    );

    app.post(
      "/projects/:projectId/incidents",
      {
        schema: {
          tags,
          summary: "Open an incident by hand (members and above), with an optional first update",
          params: ProjectParams,
          body: CreateIncidentInput,
          response: { 201: IncidentDetailView, ...write },
        },
      },
      async (request, reply) => {
        const incident = await createIncident({
          ctx: userCtx(deps.domain, request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(incident);
      },
    );

    app.get(
      "/projects/:projectId/incidents/:incidentId",
      {
        schema: {
          tags,
          summary: "One incident with its timeline, oldest entry first",
          params: IncidentParams,
          response: { 200: IncidentDetailView, ...read },
        },
      },
      async (request) => getIncident(ref(request)),
    );

    app.patch(
      "/projects/:projectId/incidents/:incidentId",
      {
        schema: {
          tags,
          summary: "Rename or re-grade an incident (title_changed / severity_changed entries)",
          params: IncidentParams,
          body: UpdateIncidentInput,
          response: { 200: IncidentDetailView, ...write },
        },
      },
      async (request) => updateIncident({ ...ref(request), input: request.body }),
    );

    const actions = [
      [
        "updates",
        IncidentUpdateInput,
        postIncidentUpdate,
        "Post a public update with its phase on an active incident (409 when resolved: reopen it first); the phase resolved resolves it",
      ],
      [
        "resolve",
        IncidentNoteInput.nullish(),
        resolveIncident,
        "Resolve an incident of any source (the entry records who); 409 when already resolved",
      ],
      [
        "reopen",
        IncidentNoteInput.nullish(),
        reopenIncident,
        "Reopen a resolved incident; a monitor's or rule's only while it still fails and only its latest incident, else 409",
      ],
      [
        "comments",
        IncidentCommentInput,
        commentOnIncident,
        "Add a private comment to the timeline",
      ],
      [
        "acknowledge",
        AcknowledgeIncidentInput.nullish(),
        acknowledgeIncident,
        "Acknowledge an active incident (who and when; escalation stops); again: 200 as it is, nothing written; 409 when resolved",
      ],
    ] as const;
    for (const [action, body, verb, summary] of actions) {
      app.post(
        `/projects/:projectId/incidents/:incidentId/${action}`,
        {
          schema: {
            tags,
            summary,
            params: IncidentParams,
            body,
            response: { 200: IncidentDetailView, ...write },
          },
        },
        async (request) => verb({ ...ref(request), input: request.body }),
      );
    }

    app.put(
      "/projects/:projectId/incidents/:incidentId/assignee",
      {
        schema: {
          tags,
          summary:
            "Assign an incident to a member of the project's organization, or unassign it with null (400 naming assigneeId for anyone else)",
          params: IncidentParams,
          body: AssignIncidentInput,
          response: { 200: IncidentDetailView, ...write },
        },
      },
      async (request) => assignIncident({ ...ref(request), input: request.body }),
    );
  };
