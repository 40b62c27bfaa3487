import type { MonitorHealth } from "../meta/repositories/monitors.js";

/** The state a check result moves: health and the consecutive-failure streak. */
export interface MonitorState {
  health: MonitorHealth;
  failureStreak: number;
}

/** What a check did to the monitor besides its state: the spec's "Also happens" column. */
export type Transition = "none" | "outage_started" | "recovered";

/**
 * The spec's transition table for one check result:
 * - passing, fails, streak reaches alertAfter → outage (one alert, an incident opens);
 * - passing, fails, streak below alertAfter → passing, streak grows, no notification;
 * - outage, fails → outage, no second alert;
 * - outage, passes → passing (one recovery notification, the incident ends).
 */
export function applyCheck(
  state: MonitorState,
  passed: boolean,
  alertAfter: number,
): { next: MonitorState; transition: Transition } {
  if (passed) {
    return {
      next: { health: "passing", failureStreak: 0 },
      transition: state.health === "outage" ? "recovered" : "none",
    };
  }
  const failureStreak = state.failureStreak + 1;
  if (state.health === "outage")
    return { next: { health: "outage", failureStreak }, transition: "none" };
  if (failureStreak >= alertAfter)
    return { next: { health: "outage", failureStreak }, transition: "outage_started" };
  return { next: { health: "passing", failureStreak }, transition: "none" };
}
