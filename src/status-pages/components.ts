import { nowIso } from "../context.js";
import {
  CreateComponentInput,
  MAX_COMPONENTS_PER_PAGE,
  MAX_SOURCES_PER_COMPONENT,
  type StatusPageComponentView,
  UpdateComponentInput,
} from "../contracts/status-pages.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import { parseInput, unknownIds } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type {
  StatusPageComponentRecord,
  StatusPageRecord,
} from "../meta/repositories/status-pages.js";
import { toComponentView } from "./status-page-views.js";
import { changePage, nextPosition, type PageRef } from "./status-pages.js";

type ComponentRef = PageRef & { componentId: string };

/**
 * Every source must be a monitor or rule of a project of the page's organization. Anything else
 * is reported the same way (missing or another organization's), so nothing of other orgs leaks.
 */
async function requireSources(
  tx: MetaAccess,
  page: StatusPageRecord,
  sources: {
    monitorIds?: readonly string[] | undefined;
    alertRuleIds?: readonly string[] | undefined;
  },
): Promise<void> {
  const { statusPages } = tx.repos;
  const monitorIds = sources.monitorIds ?? [];
  const ruleIds = sources.alertRuleIds ?? [];
  const elsewhere = (what: string) => (id: string) =>
    `no ${what} '${id}' in a project of this organization`;
  const issues = [
    ...unknownIds(
      "monitorIds",
      monitorIds,
      await statusPages.orgMonitorIds(page.orgId, monitorIds),
      elsewhere("monitor"),
    ),
    ...unknownIds(
      "alertRuleIds",
      ruleIds,
      await statusPages.orgRuleIds(page.orgId, ruleIds),
      elsewhere("alert rule"),
    ),
  ];
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
}

/** A group, when given, must be one of this page's. */
async function requireGroup(tx: MetaAccess, pageId: string, groupId: string | null) {
  if (groupId === null) return;
  const groups = await tx.repos.statusPages.listGroups(pageId);
  if (!groups.some((g) => g.id === groupId))
    throw InvalidInputError.forField("groupId", `no group '${groupId}' on this page`);
}

const unique = (ids: readonly string[]): string[] => [...new Set(ids)];

async function viewOf(
  tx: MetaAccess,
  component: StatusPageComponentRecord,
): Promise<StatusPageComponentView> {
  const sources = await tx.repos.statusPages.sourcesOf([component.id]);
  return toComponentView(component, sources.get(component.id));
}

/** Adds a component; it starts operational until the state engine computes it from its sources. */
export async function createComponent({
  ctx,
  input,
  ...ref
}: PageRef & { input: unknown }): Promise<StatusPageComponentView> {
  const parsed = parseInput(CreateComponentInput, input);
  return changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
      const components = await tx.repos.statusPages.listComponents(page.id);
      if (components.length >= MAX_COMPONENTS_PER_PAGE)
        throw new ConflictError(
          `A status page holds at most ${MAX_COMPONENTS_PER_PAGE} components; delete one first`,
        );
      await requireGroup(tx, page.id, parsed.groupId);
      await requireSources(tx, page, parsed);
      const at = nowIso(ctx.deps);
      const component: StatusPageComponentRecord = {
        id: ctx.deps.newId("spc"),
        pageId: page.id,
        groupId: parsed.groupId,
        name: parsed.name,
        description: parsed.description,
        position: parsed.position ?? nextPosition(components),
        state: "operational",
        stateChangedAt: at,
        publishIncidents: parsed.publishIncidents,
        createdAt: at,
        updatedAt: at,
      };
      await tx.repos.statusPages.insertComponent(component);
      await tx.repos.statusPages.setSources(component.id, {
        monitorIds: unique(parsed.monitorIds),
        alertRuleIds: unique(parsed.alertRuleIds),
      });
      return { result: await viewOf(tx, component), componentIds: [component.id] };
    },
  });
}

async function findComponent(
  tx: MetaAccess,
  pageId: string,
  componentId: string,
): Promise<StatusPageComponentRecord> {
  const components = await tx.repos.statusPages.listComponents(pageId);
  const component = components.find((c) => c.id === componentId);
  if (!component) throw new NotFoundError("Component", componentId);
  return component;
}

/** The component's sources after a patch: a list given replaces that kind, at most 20 in all. */
async function patchedSources(
  tx: MetaAccess,
  componentId: string,
  patch: UpdateComponentInput,
): Promise<{ monitorIds: string[]; alertRuleIds: string[] }> {
  const current = (await tx.repos.statusPages.sourcesOf([componentId])).get(componentId);
  const sources = {
    monitorIds: unique(patch.monitorIds ?? current?.monitors.map((m) => m.id) ?? []),
    alertRuleIds: unique(patch.alertRuleIds ?? current?.alertRules.map((r) => r.id) ?? []),
  };
  if (sources.monitorIds.length + sources.alertRuleIds.length > MAX_SOURCES_PER_COMPONENT)
    throw InvalidInputError.forField(
      patch.alertRuleIds === undefined ? "monitorIds" : "alertRuleIds",
      `a component takes at most ${MAX_SOURCES_PER_COMPONENT} sources (monitors and rules together)`,
    );
  return sources;
}

/**
 * Changes any fields; giving `monitorIds` or `alertRuleIds` replaces that list (and the
 * component's state is computed again from its new sources).
 */
export async function updateComponent({
  ctx,
  componentId,
  input,
  ...ref
}: ComponentRef & { input: unknown }): Promise<StatusPageComponentView> {
  const patch = parseInput(UpdateComponentInput, input);
  return changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
      const component = await findComponent(tx, page.id, componentId);
      const changed: StatusPageComponentRecord = {
        ...component,
        groupId: patch.groupId === undefined ? component.groupId : patch.groupId,
        name: patch.name ?? component.name,
        description: patch.description ?? component.description,
        position: patch.position ?? component.position,
        publishIncidents: patch.publishIncidents ?? component.publishIncidents,
        updatedAt: nowIso(ctx.deps),
      };
      await requireGroup(tx, page.id, patch.groupId ?? null);
      await requireSources(tx, page, patch);
      await tx.repos.statusPages.updateComponent(component.id, changed);
      const sourcesChanged = patch.monitorIds !== undefined || patch.alertRuleIds !== undefined;
      if (sourcesChanged)
        await tx.repos.statusPages.setSources(
          component.id,
          await patchedSources(tx, component.id, patch),
        );
      // New sources, or their incidents shown or not: the state is computed again.
      const recompute = sourcesChanged || changed.publishIncidents !== component.publishIncidents;
      return {
        result: await viewOf(tx, changed),
        componentIds: recompute ? [component.id] : [],
      };
    },
  });
}

/**
 * Removes a component with its history; maintenance windows no longer list it, and a window
 * left listing nothing is deleted (a window always covers at least one component).
 */
export async function deleteComponent({ ctx, componentId, ...ref }: ComponentRef): Promise<void> {
  await changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
      const component = await findComponent(tx, page.id, componentId);
      await tx.repos.statusPages.deleteComponent(component.id);
      await tx.repos.statusPageMaintenances.deleteEmpty(page.id);
      return { result: undefined, componentIds: [] };
    },
  });
}
