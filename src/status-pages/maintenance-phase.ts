import type { MaintenancePhase } from "../contracts/status-pages.js";

// Pure: the phase a maintenance window is in at a time, for the verbs that write it, the state
// engine's ticker that moves it at its edges and the public payload.

/** A window's phase at a time; the status page ticker moves it at the edges afterwards. */
export function phaseAt(window: { startsAt: string; endsAt: string }, now: Date): MaintenancePhase {
  const t = now.getTime();
  if (t < Date.parse(window.startsAt)) return "scheduled";
  return t < Date.parse(window.endsAt) ? "in_progress" : "completed";
}
