import { FREQUENCIES, type Frequency } from "../../../../src/contracts/monitor-catalog";
import type { MonitorView } from "../../../../src/contracts/monitors";
import { StateBadge } from "../../components/ui";

/** What the list filters on and the badge says. */
export const MONITOR_STATES = [
  { key: "up", label: "Up" },
  { key: "failing", label: "Failing" },
  { key: "down", label: "Down" },
  { key: "paused", label: "Paused" },
  { key: "pending", label: "Not checked yet" },
] as const;
export type MonitorStateKey = (typeof MONITOR_STATES)[number]["key"];

/**
 * A monitor's state in words: paused; down (an outage: failures reached alertAfter); failing
 * (failed lately, still under alertAfter); up; or not checked yet.
 */
export function monitorState(m: Pick<MonitorView, "status" | "health" | "failureStreak">): {
  key: MonitorStateKey;
  label: string;
  tone: "ok" | "bad" | "warn" | "muted";
} {
  if (m.status === "paused") return { key: "paused", label: "Paused", tone: "muted" };
  if (m.health === "outage") return { key: "down", label: "Down", tone: "bad" };
  if (m.health === "pending") return { key: "pending", label: "Not checked yet", tone: "muted" };
  if (m.failureStreak > 0)
    return {
      key: "failing",
      label: `Failing (${m.failureStreak})`,
      tone: "warn",
    };
  return { key: "up", label: "Up", tone: "ok" };
}

export function MonitorStateBadge({ monitor }: { monitor: MonitorView }) {
  const state = monitorState(monitor);
  return <StateBadge state={state.label} tone={state.tone} />;
}

export function OutcomeBadge({ passed }: { passed: boolean }) {
  return <StateBadge state={passed ? "passed" : "failed"} tone={passed ? "ok" : "bad"} />;
}

/** "1m" → "1 min", "1h" → "1 hour". */
export function frequencyLabel(frequency: Frequency): string {
  const seconds = FREQUENCIES[frequency];
  return seconds >= 3600 ? `${seconds / 3600} hour` : `${seconds / 60} min`;
}
