import type { MonitorType } from "../../contracts/monitor-catalog.js";
import type { CheckResult } from "../check-result.js";
import type { MonitorDefinition } from "../definition.js";
import type { CheckRunDeps } from "./check-run-deps.js";
import { dnsKind } from "./dns.js";
import { heartbeatKind } from "./heartbeat.js";
import { httpKind } from "./http.js";
import type { MonitorKind } from "./monitor-kind.js";
import { tcpKind } from "./tcp.js";
import { tlsKind } from "./tls.js";

export type { MonitorKind } from "./monitor-kind.js";

// The monitor kinds (docs/monitors.md): per kind its runner, its one-line target, whether the
// scheduler runs it, its save-time SSRF check and the hooks of the verbs. Everything else —
// recording, the state machine, incidents, notifications, status pages, retention — is shared.

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
