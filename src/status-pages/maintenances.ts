import {
  CreateMaintenanceInput,
  MAX_MAINTENANCE_MS,
  type StatusPageMaintenanceView,
  UpdateMaintenanceInput,
} from "../contracts/status-pages.js";
import { InvalidInputError, NotFoundError } from "../lib/domain-errors.js";
import { parseInput, unknownIds } from "../lib/validation.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { StatusPageMaintenanceRecord } from "../meta/repositories/status-page-maintenances.js";
import { phaseAt } from "./maintenance-phase.js";
import { toMaintenanceView } from "./status-page-views.js";
import { changePage, findPage, type PageRef } from "./status-pages.js";

type MaintenanceRef = PageRef & { maintenanceId: string };

/** startsAt before endsAt, at most 7 days apart; times stored in UTC ISO form. */
function checkTimes(startsAt: string, endsAt: string): { startsAt: string; endsAt: string } {
  const start = Date.parse(startsAt);
  const end = Date.parse(endsAt);
  if (end <= start) throw InvalidInputError.forField("endsAt", "must be after startsAt");
  if (end - start > MAX_MAINTENANCE_MS)
    throw InvalidInputError.forField("endsAt", "a window lasts at most 7 days after startsAt");
  return { startsAt: new Date(start).toISOString(), endsAt: new Date(end).toISOString() };
}

/** Every listed component must be one of this page's. */
async function requireComponents(
  tx: MetaAccess,
  pageId: string,
  componentIds: readonly string[],
): Promise<string[]> {
  const known = new Set((await tx.repos.statusPages.listComponents(pageId)).map((c) => c.id));
  const issues = unknownIds(
    "componentIds",
    componentIds,
    known,
    (id) => `no component '${id}' on this page`,
  );
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
  return [...new Set(componentIds)].sort();
}

async function findMaintenance(
  meta: MetaAccess,
  pageId: string,
  maintenanceId: string,
): Promise<StatusPageMaintenanceRecord> {
  const window = await meta.repos.statusPageMaintenances.findById(maintenanceId);
  if (!window || window.pageId !== pageId)
    throw new NotFoundError("Maintenance window", maintenanceId);
  return window;
}

/** A page's windows, latest start first. */
export async function listMaintenances({
  ctx,
  ...ref
}: PageRef): Promise<StatusPageMaintenanceView[]> {
  const page = await findPage({ ctx, ...ref, access: "read" });
  return (await ctx.deps.meta.repos.statusPageMaintenances.listByPage(page.id)).map(
    toMaintenanceView,
  );
}

export async function getMaintenance({
  ctx,
  maintenanceId,
  ...ref
}: MaintenanceRef): Promise<StatusPageMaintenanceView> {
  const page = await findPage({ ctx, ...ref, access: "read" });
  return toMaintenanceView(await findMaintenance(ctx.deps.meta, page.id, maintenanceId));
}

/** Schedules a window (or opens one at once when startsAt has passed); it must end ahead. */
export async function createMaintenance({
  ctx,
  input,
  ...ref
}: PageRef & { input: unknown }): Promise<StatusPageMaintenanceView> {
  const parsed = parseInput(CreateMaintenanceInput, input);
  const times = checkTimes(parsed.startsAt, parsed.endsAt);
  const now = ctx.deps.clock.now();
  if (Date.parse(times.endsAt) <= now.getTime())
    throw InvalidInputError.forField("endsAt", "must be in the future");
  return changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
      const componentIds = await requireComponents(tx, page.id, parsed.componentIds);
      const at = now.toISOString();
      const window: StatusPageMaintenanceRecord = {
        id: ctx.deps.newId("mnt"),
        pageId: page.id,
        title: parsed.title,
        message: parsed.message,
        ...times,
        phase: phaseAt(times, now),
        componentIds,
        createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        createdAt: at,
        updatedAt: at,
      };
      await tx.repos.statusPageMaintenances.insert(window);
      return { result: toMaintenanceView(window), componentIds };
    },
  });
}

/** Changes any fields; the phase is derived again from the times and the clock. */
export async function updateMaintenance({
  ctx,
  maintenanceId,
  input,
  ...ref
}: MaintenanceRef & { input: unknown }): Promise<StatusPageMaintenanceView> {
  const patch = parseInput(UpdateMaintenanceInput, input);
  return changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
      const window = await findMaintenance(tx, page.id, maintenanceId);
      const times = checkTimes(patch.startsAt ?? window.startsAt, patch.endsAt ?? window.endsAt);
      const componentIds =
        patch.componentIds === undefined
          ? window.componentIds
          : await requireComponents(tx, page.id, patch.componentIds);
      const now = ctx.deps.clock.now();
      const changed: StatusPageMaintenanceRecord = {
        ...window,
        title: patch.title ?? window.title,
        message: patch.message ?? window.message,
        ...times,
        phase: phaseAt(times, now),
        componentIds,
        updatedAt: now.toISOString(),
      };
      await tx.repos.statusPageMaintenances.update(window.id, changed);
      // Components it left and components it took may both change state.
      const touched = [...new Set([...window.componentIds, ...componentIds])];
      return { result: toMaintenanceView(changed), componentIds: touched };
    },
  });
}

/** Deletes a window; components it held in maintenance get their state computed again. */
export async function deleteMaintenance({
  ctx,
  maintenanceId,
  ...ref
}: MaintenanceRef): Promise<void> {
  await changePage({
    ctx,
    ...ref,
    change: async (tx, page) => {
      const window = await findMaintenance(tx, page.id, maintenanceId);
      await tx.repos.statusPageMaintenances.delete(window.id);
      return { result: undefined, componentIds: window.componentIds };
    },
  });
}
