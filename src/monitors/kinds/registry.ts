import type { Ctx } from "../../context.js";
import type { MonitorType } from "../../contracts/monitor-catalog.js";
import type { MonitorView } from "../../contracts/monitors.js";
import type { FieldIssue } from "../../lib/domain-errors.js";
import type { MetaAccess } from "../../meta/meta-store.js";
import type { MonitorRecord } from "../../meta/repositories/monitors.js";
import type { CheckResult } from "../check-result.js";
import type { MonitorDefinition } from "../definition.js";
import type { MonitorCtx } from "../monitors.js";
import type { CheckRunDeps } from "./check-run-deps.js";
import { dnsKind } from "./dns.js";
import { heartbeatKind } from "./heartbeat.js";
import { httpKind } from "./http.js";
import { tcpKind } from "./tcp.js";
import { tlsKind } from "./tls.js";

// The monitor kinds (docs/monitors.md): per kind its runner, its one-line target, whether the
// scheduler runs it, its save-time SSRF check and the hooks of the verbs. Everything else —
// recording, the state machine, incidents, notifications, status pages, retention — is shared.

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
  created?(tx: MetaAccess, ctx: MonitorCtx, record: MonitorRecord): Promise<void>;
  /** In the update transaction, after the definition is written. */
  updated?(
    tx: MetaAccess,
    ctx: MonitorCtx,
    before: MonitorRecord,
    after: MonitorRecord,
  ): Promise<void>;
  /** In the pause / resume transactions. */
  paused?(tx: MetaAccess, ctx: MonitorCtx, record: MonitorRecord, at: string): Promise<void>;
  resumed?(tx: MetaAccess, ctx: MonitorCtx, record: MonitorRecord, at: string): Promise<void>;
  /** Fields the view of these monitors adds, by monitor id (read in one go for a list). */
  viewFields?(
    ctx: Ctx,
    records: readonly MonitorRecord[],
  ): Promise<Map<string, Partial<MonitorView>>>;
}

type KindOf<T extends MonitorType> = MonitorKind<Extract<MonitorDefinition, { type: T }>>;

export const MONITOR_KINDS: { [T in MonitorType]: KindOf<T> } = {
  api: httpKind,
  flow: httpKind,
  tcp: tcpKind,
  dns: dnsKind,
  tls: tlsKind,
  heartbeat: heartbeatKind,
};

/** The kind of a definition, typed for any definition. */
export const kindOf = (definition: MonitorDefinition): MonitorKind =>
  MONITOR_KINDS[definition.type] as MonitorKind;

/** The definition's one-line target. */
export const targetOf = (definition: MonitorDefinition): string =>
  kindOf(definition).target(definition);

/** The runner as the engine calls it: each definition run by its kind, with the deps bound. */
export function createCheckRunner(
  deps: CheckRunDeps,
): (definition: MonitorDefinition, signal: AbortSignal) => Promise<CheckResult> {
  return (definition, signal) => {
    const { run } = kindOf(definition);
    if (!run) throw new Error(`${definition.type} monitors have no check to run`);
    return run(definition, deps, signal);
  };
}
