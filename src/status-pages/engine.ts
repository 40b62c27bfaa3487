import type { Clock } from "../lib/clock.js";
import type { MetaAccess } from "../meta/meta-store.js";
import { DAY_MS, firstHistoryDay, splitByUtcDay, utcDay } from "./history.js";
import { phaseAt } from "./maintenances.js";
import { HISTORY_DAYS, type SourceRef } from "./model.js";
import type { StatusPageSignals } from "./signals.js";
import { componentStateOf, isMuted, pageStateOf } from "./state.js";

/** The state engine: the signals sources send, plus what the ticker and the management verbs call. */
export interface StatusPageEngine extends StatusPageSignals {
  /**
   * Computes the components' states from their sources and maintenance windows; a moved state
   * closes the previous state's interval into the day rows. Their pages get their state computed
   * again and a new data version (with `bump: "on_change"`, only when a state moved).
   */
  recompute(
    tx: MetaAccess,
    componentIds: readonly string[],
    options?: { bump: "always" | "on_change" },
  ): Promise<{ changed: number }>;
  /**
   * A write under a page (its fields, groups, components, windows): the given components get
   * their state computed again, the page its state (a component may be gone) and a new version.
   */
  pageChanged(tx: MetaAccess, pageId: string, componentIds: readonly string[]): Promise<void>;
  /**
   * Runs a write to these sources (pause, mute, delete…) in the caller's transaction, then
   * computes again the components they fed before it, so a deleted source's components move too.
   */
  changeSources<T>(
    tx: MetaAccess,
    sources: readonly SourceRef[],
    write: () => Promise<T>,
  ): Promise<T>;
  /**
   * An incident opened, changed, updated or resolved: the components its source feeds and those
   * linked to it (and `alsoComponentIds`, those it was linked to before a change) move.
   */
  incidentChanged(
    tx: MetaAccess,
    incident: { id: string; source: string; sourceId: string | null },
    alsoComponentIds?: readonly string[],
  ): Promise<void>;
  /**
   * Moves maintenance windows whose edge has passed, reconciles every component with its
   * sources (a missed signal, an expired mute) and drops history past the 90 days: run
   * periodically.
   */
  tick(meta: MetaAccess): Promise<{ windowsMoved: number; componentsChanged: number }>;
}

const RECONCILE_BATCH = 500;

const idsOf = (sources: readonly SourceRef[]) => ({
  monitorIds: sources.filter((s) => s.kind === "monitor").map((s) => s.id),
  ruleIds: sources.filter((s) => s.kind === "alert_rule").map((s) => s.id),
});

export function createStatusPageEngine(deps: { clock: Clock }): StatusPageEngine {
  let prunedBefore = "";
  async function recompute(
    tx: MetaAccess,
    componentIds: readonly string[],
    options: { bump: "always" | "on_change" } = { bump: "always" },
  ): Promise<{ changed: number }> {
    if (componentIds.length === 0) return { changed: 0 };
    const repo = tx.repos.statusPageState;
    const now = deps.clock.now();
    const at = now.toISOString();
    const components = await repo.components(componentIds);
    const sources = await repo.sourceStates(componentIds);
    const inMaintenance = await repo.inMaintenance(componentIds, at);
    const touchedPages = new Set<string>();
    const movedPages = new Set<string>();
    let moved = 0;
    for (const component of components) {
      touchedPages.add(component.pageId);
      const state = componentStateOf({
        monitors: sources.monitors.get(component.id) ?? [],
        rules: (sources.rules.get(component.id) ?? []).map((r) => ({
          firing: r.firing,
          muted: isMuted(r, now),
        })),
        incidents: sources.incidents.get(component.id) ?? [],
        inMaintenance: inMaintenance.has(component.id),
      });
      if (state === component.state) continue;
      // Fenced: a component another writer moved meanwhile is left to that writer.
      if (!(await repo.moveComponentState(component, state, at))) continue;
      moved++;
      movedPages.add(component.pageId);
      // The interval the previous state lasted goes into its days' rows (shown days only).
      const from = Math.max(
        Date.parse(component.stateChangedAt),
        now.getTime() - HISTORY_DAYS * DAY_MS,
      );
      const previous = component.state;
      // Operational time needs no row: a day without one reads as operational.
      if (previous !== "operational")
        for (const { day, ms } of splitByUtcDay(from, now.getTime()))
          await repo.accrue({
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
      // Today's row learns the new state now, so a state held for less than a read's rounding
      // still colours the day.
      await repo.accrue({
        componentId: component.id,
        pageId: component.pageId,
        day: utcDay(now.getTime()),
        worstState: state === "maintenance" ? "operational" : state,
        maintenance: state === "maintenance",
        at,
      });
    }
    await updatePages(tx, options.bump === "always" ? touchedPages : movedPages, at);
    return { changed: moved };
  }

  /** The pages' states from their components' (maintenance as operational), and a new version. */
  async function updatePages(tx: MetaAccess, pageIds: ReadonlySet<string>, at: string) {
    if (pageIds.size === 0) return;
    const repo = tx.repos.statusPageState;
    const states = await repo.componentStatesOfPages([...pageIds].sort());
    const current = await repo.pageStates([...pageIds]);
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

  return {
    recompute,

    async pageChanged(tx, pageId, componentIds) {
      await recompute(tx, componentIds, { bump: "on_change" });
      await updatePages(tx, new Set([pageId]), deps.clock.now().toISOString());
    },

    async changeSources(tx, sources, write) {
      const fed = await componentsOf(tx, sources);
      const result = await write();
      await recompute(tx, fed);
      return result;
    },

    async checkRecorded(tx, check) {
      const repo = tx.repos.statusPageState;
      const components = await repo.componentsOfMonitor(check.monitorId);
      if (components.length === 0) return;
      const covered = await repo.inMaintenance(
        components.map((c) => c.id),
        check.at,
      );
      const at = deps.clock.now().toISOString();
      for (const c of components) {
        const maintenance = covered.has(c.id);
        await repo.accrue({
          componentId: c.id,
          pageId: c.pageId,
          day: utcDay(Date.parse(check.at)),
          checksRun: maintenance ? 0 : 1,
          checksPassed: !maintenance && check.passed ? 1 : 0,
          checksInMaintenance: maintenance ? 1 : 0,
          maintenance,
          at,
        });
      }
    },

    async incidentChanged(tx, incident, alsoComponentIds = []) {
      const { source, sourceId } = incident;
      const sources: SourceRef[] =
        sourceId === null || source === "manual"
          ? []
          : [{ kind: source === "monitor" ? "monitor" : "alert_rule", id: sourceId }];
      const ids = new Set([
        ...(await componentsOf(tx, sources)),
        ...(await tx.repos.statusPageState.linkedComponents(incident.id)),
        ...alsoComponentIds,
      ]);
      await recompute(tx, [...ids]);
    },

    async sourcesChanged(tx, sources) {
      await recompute(tx, await componentsOf(tx, sources));
    },

    async tick(meta) {
      const now = deps.clock.now();
      const at = now.toISOString();
      let windowsMoved = 0;
      for (const window of await meta.repos.statusPageState.maintenanceEdges(at)) {
        await meta.transaction(async (tx) => {
          await tx.repos.statusPageState.setMaintenancePhase(window.id, phaseAt(window, now), at);
          const componentIds = await tx.repos.statusPageState.maintenanceComponentIds(window.id);
          if (componentIds.length > 0) await recompute(tx, componentIds);
          else await tx.repos.statusPages.bumpVersion(window.pageId, at);
        });
        windowsMoved++;
      }
      let componentsChanged = 0;
      for (let after = ""; ; ) {
        const ids = await meta.repos.statusPageState.componentIdsAfter(after, RECONCILE_BATCH);
        if (ids.length === 0) break;
        const { changed } = await meta.transaction((tx) =>
          recompute(tx, ids, { bump: "on_change" }),
        );
        componentsChanged += changed;
        after = ids[ids.length - 1] ?? after;
        if (ids.length < RECONCILE_BATCH) break;
      }
      // Days past the window are never shown again: dropped once per UTC day.
      const first = firstHistoryDay(now);
      if (first !== prunedBefore) {
        await meta.repos.statusPageState.deleteDaysBefore(first);
        prunedBefore = first;
      }
      return { windowsMoved, componentsChanged };
    },
  };
}
