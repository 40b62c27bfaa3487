import type { MetaAccess } from "../meta/meta-store.js";

// The status pages' state engine as the rest of the domain sees it: what writers of a page's
// inputs signal (monitors, alert rules, incidents) and what the verbs and the ticker call. It
// imports no verb, so src/context.ts can carry the engine without a cycle.

/** A monitor or an alert rule a component takes its state from. */
export type SourceRef = { kind: "monitor"; id: string } | { kind: "alert_rule"; id: string };

/**
 * How monitors, alert rules and incidents tell status pages that something they show may have
 * changed. Every call runs inside the writer's transaction, so a page never misses a change
 * and never shows one that rolled back. Sources bound to no component cost one indexed read.
 */
export interface StatusPageSignals {
  /** A monitor check was recorded: counts it in today's history of the monitor's components. */
  checkRecorded(
    tx: MetaAccess,
    check: { monitorId: string; passed: boolean; at: string },
  ): Promise<void>;
  /**
   * A source's state may have moved (monitor health, pause, rule state or mute, an incident of
   * the source opened, changed, updated or resolved): recomputes the components fed by it and
   * bumps their pages' data_version.
   */
  sourcesChanged(tx: MetaAccess, sources: readonly SourceRef[]): Promise<void>;
}

/** The state engine: the signals sources send, plus what the ticker and the management verbs call. */
export interface StatusPageEngine extends StatusPageSignals {
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

/** The section of a verb's deps that writers of what a page shows signal through. */
export interface StatusPageSignalDeps {
  statusPages: StatusPageEngine;
}
