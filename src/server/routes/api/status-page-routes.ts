import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainDeps } from "../../../context.js";
import { listOf, Problem } from "../../../contracts/pagination.js";
import {
  CreateComponentInput,
  CreateGroupInput,
  CreateMaintenanceInput,
  CreateStatusPageInput,
  ItemIdParam,
  OrgIdParam,
  StatusPageComponentView,
  StatusPageConfigView,
  StatusPageGroupView,
  StatusPageMaintenanceView,
  StatusPageView,
  UpdateComponentInput,
  UpdateGroupInput,
  UpdateMaintenanceInput,
  UpdateStatusPageInput,
} from "../../../contracts/status-pages.js";
import {
  createComponent,
  deleteComponent,
  updateComponent,
} from "../../../status-pages/components.js";
import { createGroup, deleteGroup, updateGroup } from "../../../status-pages/groups.js";
import {
  createMaintenance,
  deleteMaintenance,
  getMaintenance,
  listMaintenances,
  updateMaintenance,
} from "../../../status-pages/maintenances.js";
import type { StatusPageSignalDeps } from "../../../status-pages/signals.js";
import {
  createPage,
  deletePage,
  getPage,
  listPages,
  updatePage,
} from "../../../status-pages/status-pages.js";
import { PaginationQuery, paginate } from "../../pagination.js";
import { userCtx } from "../../request-context.js";

const OrgParams = z.object({ orgId: OrgIdParam });
const PageParams = OrgParams.extend({ pageId: ItemIdParam });
const GroupParams = PageParams.extend({ groupId: ItemIdParam });
const ComponentParams = PageParams.extend({ componentId: ItemIdParam });
const MaintenanceParams = PageParams.extend({ maintenanceId: ItemIdParam });

const tags = ["status-pages"];
const read = { 401: Problem, 404: Problem };
const write = { 400: Problem, 401: Problem, 403: Problem, 404: Problem };
/** Writes that can meet a taken slug or group name, or the page's component limit. */
const save = { ...write, 409: Problem };
const gone = { 204: z.null(), ...write };

type App = Parameters<FastifyPluginAsyncZod>[0];

const base = "/orgs/:orgId/status-pages";
const page = `${base}/:pageId`;

/** A page itself: list, create, read, change, delete. */
/** What the management verbs use: the base and the status pages' signals. */
type PageDeps = DomainDeps & StatusPageSignalDeps;

function pageRoutes(app: App, deps: PageDeps): void {
  app.get(
    base,
    {
      schema: {
        tags,
        summary: "Status pages of an organization",
        params: OrgParams,
        querystring: PaginationQuery,
        response: { 200: listOf(StatusPageView), ...read },
      },
    },
    async (request) =>
      paginate(
        await listPages({ ctx: userCtx(deps, request), orgId: request.params.orgId }),
        request.query,
      ),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: "Create a status page (owner or admin); the slug is its public address",
        params: OrgParams,
        body: CreateStatusPageInput,
        response: { 201: StatusPageConfigView, ...save },
      },
    },
    async (request, reply) => {
      const created = await createPage({
        ctx: userCtx(deps, request),
        orgId: request.params.orgId,
        input: request.body,
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    page,
    {
      schema: {
        tags,
        summary: "One status page's configuration: groups, components with sources, windows",
        params: PageParams,
        response: { 200: StatusPageConfigView, ...read },
      },
    },
    async (request) => getPage({ ctx: userCtx(deps, request), ...request.params }),
  );

  app.patch(
    page,
    {
      schema: {
        tags,
        summary: "Change a status page's fields",
        params: PageParams,
        body: UpdateStatusPageInput,
        response: { 200: StatusPageConfigView, ...save },
      },
    },
    async (request) =>
      updatePage({ ctx: userCtx(deps, request), ...request.params, input: request.body }),
  );

  app.delete(
    page,
    {
      schema: {
        tags,
        summary: "Delete a status page with its components, windows and history",
        params: PageParams,
        response: gone,
      },
    },
    async (request, reply) => {
      await deletePage({ ctx: userCtx(deps, request), ...request.params });
      return reply.code(204).send(null);
    },
  );
}

/** A page's groups: add, change, delete. */
function groupRoutes(app: App, deps: PageDeps): void {
  app.post(
    `${page}/groups`,
    {
      schema: {
        tags,
        summary: "Add a group of components (names are unique in a page)",
        params: PageParams,
        body: CreateGroupInput,
        response: { 201: StatusPageGroupView, ...save },
      },
    },
    async (request, reply) => {
      const group = await createGroup({
        ctx: userCtx(deps, request),
        ...request.params,
        input: request.body,
      });
      return reply.code(201).send(group);
    },
  );

  app.patch(
    `${page}/groups/:groupId`,
    {
      schema: {
        tags,
        summary: "Rename or move a group",
        params: GroupParams,
        body: UpdateGroupInput,
        response: { 200: StatusPageGroupView, ...save },
      },
    },
    async (request) =>
      updateGroup({ ctx: userCtx(deps, request), ...request.params, input: request.body }),
  );

  app.delete(
    `${page}/groups/:groupId`,
    {
      schema: {
        tags,
        summary: "Delete a group; its components stay, ungrouped",
        params: GroupParams,
        response: gone,
      },
    },
    async (request, reply) => {
      await deleteGroup({ ctx: userCtx(deps, request), ...request.params });
      return reply.code(204).send(null);
    },
  );
}

/** A page's components: add, change, delete. */
function componentRoutes(app: App, deps: PageDeps): void {
  app.post(
    `${page}/components`,
    {
      schema: {
        tags,
        summary:
          "Add a component fed by monitors and alert rules of the organization (at most 100 a page)",
        params: PageParams,
        body: CreateComponentInput,
        response: { 201: StatusPageComponentView, ...save },
      },
    },
    async (request, reply) => {
      const component = await createComponent({
        ctx: userCtx(deps, request),
        ...request.params,
        input: request.body,
      });
      return reply.code(201).send(component);
    },
  );

  app.patch(
    `${page}/components/:componentId`,
    {
      schema: {
        tags,
        summary: "Change a component; giving monitorIds or alertRuleIds replaces that list",
        params: ComponentParams,
        body: UpdateComponentInput,
        response: { 200: StatusPageComponentView, ...write },
      },
    },
    async (request) =>
      updateComponent({ ctx: userCtx(deps, request), ...request.params, input: request.body }),
  );

  app.delete(
    `${page}/components/:componentId`,
    {
      schema: {
        tags,
        summary: "Remove a component with its history",
        params: ComponentParams,
        response: gone,
      },
    },
    async (request, reply) => {
      await deleteComponent({ ctx: userCtx(deps, request), ...request.params });
      return reply.code(204).send(null);
    },
  );
}

/** A page's maintenance windows: list, schedule, read, change, delete. */
function maintenanceRoutes(app: App, deps: PageDeps): void {
  app.get(
    `${page}/maintenances`,
    {
      schema: {
        tags,
        summary: "Maintenance windows of a page, latest start first",
        params: PageParams,
        querystring: PaginationQuery,
        response: { 200: listOf(StatusPageMaintenanceView), ...read },
      },
    },
    async (request) =>
      paginate(
        await listMaintenances({ ctx: userCtx(deps, request), ...request.params }),
        request.query,
      ),
  );

  app.post(
    `${page}/maintenances`,
    {
      schema: {
        tags,
        summary: "Schedule a maintenance window (at most 7 days, ending in the future)",
        params: PageParams,
        body: CreateMaintenanceInput,
        response: { 201: StatusPageMaintenanceView, ...write },
      },
    },
    async (request, reply) => {
      const window = await createMaintenance({
        ctx: userCtx(deps, request),
        ...request.params,
        input: request.body,
      });
      return reply.code(201).send(window);
    },
  );

  app.get(
    `${page}/maintenances/:maintenanceId`,
    {
      schema: {
        tags,
        summary: "One maintenance window",
        params: MaintenanceParams,
        response: { 200: StatusPageMaintenanceView, ...read },
      },
    },
    async (request) => getMaintenance({ ctx: userCtx(deps, request), ...request.params }),
  );

  app.patch(
    `${page}/maintenances/:maintenanceId`,
    {
      schema: {
        tags,
        summary: "Change a maintenance window; its phase is derived again from the clock",
        params: MaintenanceParams,
        body: UpdateMaintenanceInput,
        response: { 200: StatusPageMaintenanceView, ...write },
      },
    },
    async (request) =>
      updateMaintenance({ ctx: userCtx(deps, request), ...request.params, input: request.body }),
  );

  app.delete(
    `${page}/maintenances/:maintenanceId`,
    {
      schema: {
        tags,
        summary: "Delete a maintenance window",
        params: MaintenanceParams,
        response: gone,
      },
    },
    async (request, reply) => {
      await deleteMaintenance({ ctx: userCtx(deps, request), ...request.params });
      return reply.code(204).send(null);
    },
  );
}

/**
 * /api/orgs/:orgId/status-pages… (docs/design.md §4): an organization's status pages, their groups,
 * components (bound to monitors and alert rules) and maintenance windows. Every member reads;
 * owners and admins write.
 */
export const statusPageRoutes =
  (deps: PageDeps): FastifyPluginAsyncZod =>
  async (app) => {
    pageRoutes(app, deps);
    groupRoutes(app, deps);
    componentRoutes(app, deps);
    maintenanceRoutes(app, deps);
  };
