import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import {
  CreateEscalationPolicyInput,
  EscalationPolicyView,
  IncidentEscalationView,
  UpdateEscalationPolicyInput,
} from "../../../contracts/escalation.js";
import { Problem } from "../../../contracts/pagination.js";
import {
  createEscalationPolicy,
  deleteEscalationPolicy,
  getEscalationPolicy,
  listEscalationPolicies,
  updateEscalationPolicy,
} from "../../../escalation/escalation-policies.js";
import { getIncidentEscalation } from "../../../escalation/incident-escalations.js";
import { userCtx } from "../../request-context.js";
import { IdParam, ProjectParams } from "./project-routes.js";

const PolicyParams = ProjectParams.extend({ policyId: IdParam });
const IncidentParams = ProjectParams.extend({ incidentId: IdParam });
const tags = ["escalation"];
const read = { 400: Problem, 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem };

/** /api/projects/:projectId/escalation-policies…: escalation policies (session auth), and an incident's escalation. */
export const escalationRoutes =
  (domain: DomainDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/projects/:projectId/escalation-policies",
      {
        schema: {
          tags,
          summary:
            "The project's escalation policies, by name, each with the monitors and alert rules using it",
          params: ProjectParams,
          response: { 200: z.object({ data: z.array(EscalationPolicyView) }), ...read },
        },
      },
      async (request) => ({
        data: await listEscalationPolicies({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
        }),
      }),
    );

    app.post(
      "/projects/:projectId/escalation-policies",
      {
        schema: {
          tags,
          summary:
            "Create an escalation policy: ordered steps of channels with delays, repeated (members and above)",
          params: ProjectParams,
          body: CreateEscalationPolicyInput,
          response: { 201: EscalationPolicyView, ...write, 409: Problem },
        },
      },
      async (request, reply) => {
        const policy = await createEscalationPolicy({
          ctx: userCtx(domain, request),
          projectId: request.params.projectId,
          input: request.body,
        });
        return reply.code(201).send(policy);
      },
    );

    app.get(
      "/projects/:projectId/escalation-policies/:policyId",
      {
        schema: {
          tags,
          summary: "One escalation policy",
          params: PolicyParams,
          response: { 200: EscalationPolicyView, ...read },
        },
      },
      async (request) => getEscalationPolicy({ ctx: userCtx(domain, request), ...request.params }),
    );

    app.patch(
      "/projects/:projectId/escalation-policies/:policyId",
      {
        schema: {
          tags,
          summary:
            "Rename a policy or replace its steps or repeat count (members and above); running escalations keep the policy as it was",
          params: PolicyParams,
          body: UpdateEscalationPolicyInput,
          response: { 200: EscalationPolicyView, ...write, 409: Problem },
        },
      },
      async (request) =>
        updateEscalationPolicy({
          ctx: userCtx(domain, request),
          ...request.params,
          input: request.body,
        }),
    );

    app.delete(
      "/projects/:projectId/escalation-policies/:policyId",
      {
        schema: {
          tags,
          summary:
            "Delete an escalation policy (members and above); 409 naming the monitors and alert rules still using it",
          params: PolicyParams,
          response: {
            204: z.null().describe("Deleted"),
            401: Problem,
            403: Problem,
            404: Problem,
            409: Problem,
          },
        },
      },
      async (request, reply) => {
        await deleteEscalationPolicy({ ctx: userCtx(domain, request), ...request.params });
        return reply.code(204).send(null);
      },
    );

    app.get(
      "/projects/:projectId/incidents/:incidentId/escalation",
      {
        schema: {
          tags,
          summary:
            "Where an incident's escalation stands (404 when its monitor or alert rule has no policy)",
          params: IncidentParams,
          response: { 200: IncidentEscalationView, ...read },
        },
      },
      async (request) =>
        getIncidentEscalation({ ctx: userCtx(domain, request), ...request.params }),
    );
  };
