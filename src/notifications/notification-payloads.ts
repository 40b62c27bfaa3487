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
    /** When the outage ended; null while it lasts (as /v1/incidents' resolvedAt). */
    resolvedAt: string | null;
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

/** Events an alert rule notifies its channels of: a series fired, resolved, or is still firing. */
export const ALERT_EVENTS = ["alert.fired", "alert.resolved", "alert.renotified"] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** What a channel is told about one series of an alert rule firing, resolving or still firing. */
export interface AlertNotification {
  event: AlertEvent;
  projectId: string;
  rule: { id: string; name: string; severity: string; condition: string };
  /** The series: its key (labels sorted, JSON) and the first 16 hex of its SHA-256. */
  series: { key: string; keyHash: string; labels: Record<string, string> };
  /** The value of the evaluation (null when the query returned no data). */
  value: number | null;
  threshold: number;
  /** When this series fired: with the rule and series, it identifies one fire. */
  firedAt: string;
  resolvedAt: string | null;
  /** The rule's message template, rendered. */
  message: string;
  incidentId: string | null;
}

/** Where an escalation policy stands when it sends a notification (docs/escalation.md). */
export interface EscalationStep {
  policyId: string;
  policyName: string;
  /** The step sending now, 1-based, of `steps`. */
  step: number;
  steps: number;
  /** Which pass through the steps this is, 1-based, of `rounds` (1 + the policy's repeat count). */
  round: number;
  rounds: number;
}

/**
 * What every notification may carry beside its payload: the one-click acknowledge link of the
 * incident it is about (problems only: monitor.down, alert.fired, alert.renotified, while the
 * incident is open and unacknowledged), and the escalation step that sent it, if one did.
 * Channels show the link as a button or link and say which step escalated.
 */
export interface NotificationExtras {
  /** Absolute, single use, expiring; absent when the notification has no open incident. */
  acknowledgeUrl?: string;
  escalation?: EscalationStep;
}

/** Anything a channel sends: a monitor's outage or recovery, or an alert's fire, resolve or reminder. */
export type Notification = (MonitorNotification | AlertNotification) & NotificationExtras;

export const isAlertNotification = (n: Notification): n is AlertNotification =>
  n.event.startsWith("alert.");

/**
 * A notification as the delivery queue stored it (the parsed JSON of its payload). Monitor
 * payloads queued before the outage's end was named `resolvedAt` carry it as `endedAt`; they are
 * read under the current name, so a delivery queued before an upgrade still says when the outage
 * ended. Anything else is read as it was stored.
 */
export function readStoredNotification(stored: unknown): Notification {
  const payload = stored as Notification;
  const incident: unknown = (payload as { incident?: unknown } | null)?.incident;
  if (typeof incident !== "object" || incident === null || !("endedAt" in incident)) return payload;
  const { endedAt, ...current } = incident as MonitorNotification["incident"] & {
    endedAt: string | null;
  };
  const monitor = payload as MonitorNotification;
  return { ...monitor, incident: { ...current, resolvedAt: current.resolvedAt ?? endedAt } };
}
