import type { ComponentState } from "../contracts/status-pages.js";
import type { Clock } from "../lib/clock.js";
import type { MetaAccess } from "../meta/meta-store.js";
import type { ComponentStateRow } from "../meta/repositories/status-page-state.js";
import { firstHistoryDay, splitByUtcDay, utcDay } from "./history.js";
import { phaseAt } from "./maintenance-phase.js";
import type { SourceRef, StatusPageEngine } from "./signals.js";
import { componentStateOf, isMuted, pageStateOf } from "./state-rule.js";

const RECONCILE_BATCH = 500;

const idsOf = (sources: readonly SourceRef[]) => ({
  monitorIds: sources.filter((s) => s.kind === "monitor").map((s) => s.id),
  ruleIds: sources.filter((s) => s.kind === "alert_rule").map((s) => s.id),
});

/** A component with the state its inputs give it now. */
interface Computed {
  component: ComponentStateRow;
  state: ComponentState;
}

/** The state each component's sources, linked incidents and windows give it at `now` (reads only). */
async function computeStates(
  tx: MetaAccess,
  componentIds: readonly string[],
  now: Date,
): Promise<Computed[]> {
  const repo = tx.repos.statusPageState;
  const components = await repo.components(componentIds);
  const sources = await repo.sourceStates(componentIds, now.toISOString());
  const inMaintenance = await repo.inMaintenance(componentIds, now.toISOString());
  return components.map((component) => ({
    component,
    state: componentStateOf({
      monitors: sources.monitors.get(component.id) ?? [],
      rules: (sources.rules.get(component.id) ?? []).map((r) => ({
        firing: r.firing,
        muted: isMuted(r, now),
      })),
      incidents: sources.incidents.get(component.id) ?? [],
      inMaintenance: inMaintenance.has(component.id),
    }),
  }));
}

/**
 * Computes the components' states again; a moved state closes the previous state's interval
 * into its day rows. Their pages get their state again and a new data version (`always`),
 * only when a component moved (`on_change`), or not at all (`none`: the caller does it).
 *
 * Lock order, the same for every writer: pages (by id) → components → day rows. Management
 * writes hold their page first already; the states are read after the locks, so two writers
 * of one page never act on each other's stale reads.
 */
async function recompute(
  clock: Clock,
  tx: MetaAccess,
  componentIds: readonly string[],
  bump: "always" | "on_change" | "none",
): Promise<number> {
  if (componentIds.length === 0) return 0;
  const repo = tx.repos.statusPageState;
  const pageIds = await repo.pagesOfComponents(componentIds);
  for (const pageId of pageIds) await tx.repos.statusPages.lock(pageId);
  const now = clock.now();
  const at = now.toISOString();
  const historyStart = Date.parse(`${firstHistoryDay(now)}T00:00:00.000Z`);
  const movedPages = new Set<string>();
  let moved = 0;
  for (const { component, state } of await computeStates(tx, componentIds, now)) {
    if (state === component.state) continue;
    // Fenced on what was read: a component another writer moved meanwhile is left to it.
    if (!(await repo.moveComponentState(component, state, at))) continue;
    moved++;
    movedPages.add(component.pageId);
    const previous = component.state;
    // The previous state's interval goes into the days it covered (shown days only);
    // operational time needs no row: a day without one reads as operational.
    const from = Math.max(Date.parse(component.stateChangedAt), historyStart);
    if (previous !== "operational")
      for (const { day, ms } of splitByUtcDay(from, now.getTime()))
        await tx.repos.statusPageDays.accrue({
          componentId: component.id,
          pageId: component.pageId,
          day,
          downMs: previous === "down" ? ms : 0,
          degradedMs: previous === "degraded" ? ms : 0,
          maintenanceMs: previous === "maintenance" ? ms : 0,
          worstState: previous === "maintenance" ? "operational" : previous,
          maintenance: previous === "maintenance",
          at,
        });
    // Today's row learns the new state now, so even a state held for a moment colours it.
    await tx.repos.statusPageDays.accrue({
      componentId: component.id,
      pageId: component.pageId,
      day: utcDay(now.getTime()),
      worstState: state === "maintenance" ? "operational" : state,
      maintenance: state === "maintenance",
      at,
    });
  }
  if (bump !== "none")
    await updatePages(tx, bump === "always" ? pageIds : [...movedPages].sort(), at);
  return moved;
}

/** The pages' states from their components' (maintenance as operational), and a new version. */
async function updatePages(tx: MetaAccess, pageIds: readonly string[], at: string) {
  if (pageIds.length === 0) return;
  const repo = tx.repos.statusPageState;
  const states = await repo.componentStatesOfPages(pageIds);
  const current = await repo.pageStates(pageIds);
  for (const [pageId, componentStates] of states) {
    if (!current.has(pageId)) continue;
    const state = pageStateOf(componentStates);
    await repo.updatePage(pageId, { state, at, stateChanged: current.get(pageId) !== state });
  }
}

const componentsOf = (tx: MetaAccess, sources: readonly SourceRef[]) =>
  sources.length === 0
    ? Promise.resolve([])
    : tx.repos.statusPageState.componentsOfSources(idsOf(sources));

/** A check counted in today's row of each of its monitor's components (see StatusPageSignals). */
async function countCheck(
  clock: Clock,
  tx: MetaAccess,
  check: { monitorId: string; passed: boolean; at: string },
): Promise<void> {
  const repo = tx.repos.statusPageState;
  const components = await repo.componentsOfMonitor(check.monitorId);
  if (components.length === 0) return;
  const ids = components.map((c) => c.id);
  const day = utcDay(Date.parse(check.at));
  const covered = await repo.inMaintenance(ids, check.at);
  // A component's first counted check of the day gives the day (and maybe the 90 days) an
  // uptime where there was none: a new data version, so no cached read says "no data yet".
  // Later checks only move the numbers, which a read may show up to 30 s late.
  const run = await tx.repos.statusPageDays.checksRunOn(ids, day);
  const firsts = [
    ...new Set(
      components
        .filter((c) => !covered.has(c.id) && (run.get(c.id) ?? 0) === 0)
        .map((c) => c.pageId),
    ),
  ].sort();
  // The lock order of every writer: pages first, then day rows.
  for (const pageId of firsts) await tx.repos.statusPages.lock(pageId);
  const at = clock.now().toISOString();
  for (const c of components) {
    const maintenance = covered.has(c.id);
    await tx.repos.statusPageDays.accrue({
      componentId: c.id,
      pageId: c.pageId,
      day,
      checksRun: maintenance ? 0 : 1,
      checksPassed: !maintenance && check.passed ? 1 : 0,
      checksInMaintenance: maintenance ? 1 : 0,
      maintenance,
      at,
    });
  }
  for (const pageId of firsts) await tx.repos.statusPages.bumpVersion(pageId, at);
}

/** Moves the windows whose edge has passed into their phase at `now`; says how many moved. */
async function moveWindows(clock: Clock, meta: MetaAccess, now: Date): Promise<number> {
  const at = now.toISOString();
  let windowsMoved = 0;
  for (const window of await meta.repos.statusPageMaintenances.behindClock(at)) {
    const moved = await meta.transaction(async (tx) => {
      // The page first, as every writer of it does.
      await tx.repos.statusPages.lock(window.pageId);
      // Re-read under the lock: another worker's tick may have moved it already.
      const current = await tx.repos.statusPageMaintenances.findById(window.id);
      if (!current) return false;
      const phase = phaseAt(current, now);
      if (phase === current.phase) return false;
      await tx.repos.statusPageMaintenances.setPhase(window.id, phase, at);
      if (current.componentIds.length > 0)
        await recompute(clock, tx, current.componentIds, "always");
      else await tx.repos.statusPages.bumpVersion(window.pageId, at);
      return true;
    });
    if (moved) windowsMoved++;
  }
  return windowsMoved;
}

export function createStatusPageEngine(deps: { clock: Clock }): StatusPageEngine {
  let prunedBefore = "";
  /** Mutes that ended after this are looked for at the next tick: this node's last tick, or start. */
  let mutesSeenUpTo = deps.clock.now().toISOString();

  return {
    async pageChanged(tx, pageId, componentIds) {
      await recompute(deps.clock, tx, componentIds, "none");
      await updatePages(tx, [pageId], deps.clock.now().toISOString());
    },

    async changeSources(tx, sources, write) {
      const fed = await componentsOf(tx, sources);
      const result = await write();
      await recompute(deps.clock, tx, fed, "always");
      return result;
    },

    checkRecorded: (tx, check) => countCheck(deps.clock, tx, check),

    async incidentChanged(tx, incident, alsoComponentIds = []) {
      const { source, sourceId } = incident;
      const sources: SourceRef[] =
        sourceId === null || source === "manual"
          ? []
          : [{ kind: source === "monitor" ? "monitor" : "alert_rule", id: sourceId }];
      const ids = new Set([
        ...(await componentsOf(tx, sources)),
        ...(await tx.repos.statusPageIncidentLinks.linkedComponents(incident.id)),
        ...alsoComponentIds,
      ]);
      await recompute(deps.clock, tx, [...ids], "always");
    },

    async sourcesChanged(tx, sources) {
      await recompute(deps.clock, tx, await componentsOf(tx, sources), "always");
    },

    async tick(meta) {
      const now = deps.clock.now();
      const at = now.toISOString();
      const windowsMoved = await moveWindows(deps.clock, meta, now);
      // A mute that ended since the last tick puts its rule's open incident back on the page
      // even where no component's state moves: those components and a new version of their
      // pages (every node's tick does it: a second new version costs one rebuild).
      let componentsChanged = 0;
      if (at > mutesSeenUpTo) {
        const unmuted = await meta.repos.statusPageState.componentsOfMutesEndedIn(
          mutesSeenUpTo,
          at,
        );
        if (unmuted.length > 0)
          componentsChanged += await meta.transaction((tx) =>
            recompute(deps.clock, tx, unmuted, "always"),
          );
        mutesSeenUpTo = at;
      }
      // Reconciliation reads without locks and writes only the components that are off.
      for (let after = ""; ; ) {
        const ids = await meta.repos.statusPageState.componentIdsAfter(after, RECONCILE_BATCH);
        if (ids.length === 0) break;
        const off = (await computeStates(meta, ids, now))
          .filter((c) => c.state !== c.component.state)
          .map((c) => c.component.id);
        if (off.length > 0)
          componentsChanged += await meta.transaction((tx) =>
            recompute(deps.clock, tx, off, "on_change"),
          );
        after = ids[ids.length - 1] ?? after;
        if (ids.length < RECONCILE_BATCH) break;
      }
      // Days past the window are never shown again: dropped once per UTC day.
      const first = firstHistoryDay(now);
      if (first !== prunedBefore) {
        await meta.repos.statusPageDays.deleteDaysBefore(first);
        prunedBefore = first;
      }
      return { windowsMoved, componentsChanged };
    },
  };
}
