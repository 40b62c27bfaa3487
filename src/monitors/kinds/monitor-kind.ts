import type { Ctx } from "../../context.js";
import type { MonitorView } from "../../contracts/monitors.js";
import type { FieldIssue } from "../../lib/domain-errors.js";
import type { MetaAccess } from "../../meta/meta-store.js";
import type { MonitorRecord } from "../../meta/repositories/monitors.js";
import type { CheckResult } from "../check-result.js";
import type { MonitorDefinition } from "../definition.js";
import type { CheckRunDeps } from "./check-run-deps.js";

// The shape of a monitor kind (registry.ts lists them). The verbs' hooks get the command's ctx
// (a MonitorCtx: the domain deps with the monitors' section).

/** What one kind of monitor does differently from the others. */
export interface MonitorKind<D extends MonitorDefinition = MonitorDefinition> {
  /** Checked every `frequency` by the scheduler (heartbeats are not: pings and deadlines are). */
  scheduled: boolean;
  /** What is checked, in one line (the view's `target`, notifications' `monitor.url`). */
  target(definition: D): string;
  /**
   * Runs one check; never throws for anything the target does (failures are in the result).
   * Absent: the kind has no check to run on request (a heartbeat waits for its pings).
   */
  run?(definition: D, deps: CheckRunDeps, signal: AbortSignal): Promise<CheckResult>;
  /** Fields whose target is certainly private (an IP literal, a local name): refused at save time. */
  privateTargets(definition: D, allowSetting: string): FieldIssue[];
  /** In the create transaction, after the monitor row is written. */
  created?(tx: MetaAccess, ctx: Ctx, record: MonitorRecord): Promise<void>;
  /** In the update transaction, after the definition is written. */
  updated?(tx: MetaAccess, ctx: Ctx, before: MonitorRecord, after: MonitorRecord): Promise<void>;
  /** In the pause / resume transactions. */
  paused?(tx: MetaAccess, ctx: Ctx, record: MonitorRecord, at: string): Promise<void>;
  resumed?(tx: MetaAccess, ctx: Ctx, record: MonitorRecord, at: string): Promise<void>;
  /** Fields the view of these monitors adds, by monitor id (read in one go for a list). */
  viewFields?(
    ctx: Ctx,
    records: readonly MonitorRecord[],
  ): Promise<Map<string, Partial<MonitorView>>>;
}
