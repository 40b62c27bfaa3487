import type { Logger } from "pino";
import { createEscalationWorker, type EscalationWorker } from "../escalation/escalation-worker.js";
import type { AppUrl } from "../lib/app-url.js";
import type { Clock } from "../lib/clock.js";
import type { IdGenerator } from "../lib/ids.js";
import type { MetaStore } from "../meta/meta-store.js";

/** Escalation policies' worker: sends due steps through the outbox, stops on acknowledge or resolve. */
export interface AppEscalation {
  worker: EscalationWorker;
}

export function createEscalation(deps: {
  meta: MetaStore;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  appUrl: Pick<AppUrl, "link">;
  onNotificationsQueued: () => void;
}): AppEscalation {
  return { worker: createEscalationWorker(deps) };
}
