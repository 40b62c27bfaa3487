import type { MetaAccess } from "../meta/meta-store.js";
import type { SourceRef } from "./model.js";

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
