/** Events a monitor notifies its channels of (one down per outage, one recovered after it). */
export const MONITOR_EVENTS = ["monitor.down", "monitor.recovered"] as const;
export type MonitorEvent = (typeof MONITOR_EVENTS)[number];

/** What a channel is told about a monitor's outage or recovery; the payload of `monitor.*` events. */
export interface MonitorNotification {
  event: MonitorEvent;
  projectId: string;
  monitor: { id: string; name: string; type: string; url: string };
  incident: {
    id: string;
    startedAt: string;
    endedAt: string | null;
    durationMs: number | null;
  };
  /** The check that opened (down) or ended (recovered) the outage. */
  check: {
    resultId: string;
    startedAt: string;
    /** The failed step's name and the first failure's text, for monitor.down. */
    failedStep: string | null;
    reason: string | null;
    statusCode: number | null;
  };
}
