import type { Logger } from "pino";
import { createPeriodicTask, type PeriodicTask } from "../lib/periodic-task.js";
import {
  type EscalationPass,
  type EscalationRunDeps,
  runEscalations,
} from "./escalation-runner.js";

/** How often the worker looks for due steps and acknowledged or resolved incidents. */
export const ESCALATION_INTERVAL_MS = 2_000;

/** The escalation worker: a pass every interval; `runOnce` lets tests drive it on a fake clock. */
export type EscalationWorker = PeriodicTask;

export function createEscalationWorker(
  deps: EscalationRunDeps & {
    logger: Logger;
    intervalMs?: number | undefined;
    /** Called after a pass queued deliveries, so the outbox sends them now. */
    onNotificationsQueued?: (() => void) | undefined;
    onPass?: ((pass: EscalationPass) => void) | undefined;
  },
): EscalationWorker {
  const log = deps.logger.child({ component: "escalation" });
  return createPeriodicTask({
    run: async () => {
      const pass = await runEscalations(deps);
      if (pass.deliveries > 0) deps.onNotificationsQueued?.();
      if (pass.steps > 0 || pass.stopped > 0) log.info(pass, "escalation steps sent and stopped");
      deps.onPass?.(pass);
    },
    intervalMs: deps.intervalMs ?? ESCALATION_INTERVAL_MS,
    onError: (error) => log.error({ err: error.message }, "escalation pass failed"),
  });
}
