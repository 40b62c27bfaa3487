import type { Ctx, DomainDeps } from "../../context.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { HeartbeatDefinition } from "../definition.js";
import { heartbeatTarget, heartbeatTiming } from "../heartbeat-results.js";
import {
  createHeartbeat,
  editHeartbeat,
  heartbeatViewFields,
  pauseHeartbeat,
  resumeHeartbeat,
} from "../heartbeats.js";
import type { MonitorKind } from "./monitor-kind.js";

/** The box sealing ping tokens: the monitors' section's (the composition root's ctx carries it). */
function secretBoxOf(ctx: Ctx): SecretBox | undefined {
  const deps: DomainDeps & { monitors?: { secretBox?: SecretBox | undefined } } = ctx.deps;
  return deps.monitors?.secretBox;
}

/**
 * heartbeat (docs/heartbeats.md): never scheduled and nothing to run on request; its checks are
 * its pings (routes/ping) and the deadlines the watcher finds passed (heartbeat-watcher.ts). The
 * verbs' hooks keep its token and deadline beside the monitor; its view adds pingUrl, lastPingAt.
 */
export const heartbeatKind: MonitorKind<HeartbeatDefinition> = {
  scheduled: false,
  target: (definition) => heartbeatTarget(heartbeatTiming(definition)),
  // Nothing is connected to: the job calls us.
  privateTargets: () => [],
  created(tx, ctx, record) {
    const secretBox = secretBoxOf(ctx);
    if (!secretBox) throw new Error("heartbeat monitors need the server key (monitors.secretBox)");
    return createHeartbeat(
      tx,
      { secretBox },
      {
        id: record.id,
        definition: record.definition,
        createdAt: record.createdAt,
        active: record.status === "active",
      },
    );
  },
  updated: (tx, _ctx, before, after) =>
    editHeartbeat(
      tx,
      {
        id: after.id,
        before: before.definition,
        after: after.definition,
        active: after.status === "active",
      },
      after.updatedAt,
    ),
  paused: (tx, _ctx, record) => pauseHeartbeat(tx, record.id),
  resumed: (tx, _ctx, record, at) => resumeHeartbeat(tx, record, at),
  viewFields: (ctx, records) =>
    heartbeatViewFields(
      ctx.deps.meta,
      { secretBox: secretBoxOf(ctx), appUrl: ctx.deps.appUrl },
      records.map((r) => r.id),
    ),
};
