import { describe, expect, it } from "vitest";
import { applyCheck, type MonitorState, type Transition } from "./state-machine.js";

/** Feeds a sequence of check outcomes and collects the transitions. */
function run(
  outcomes: string,
  alertAfter: number,
  start: MonitorState = { health: "pending", failureStreak: 0 },
) {
  let state = start;
  const transitions: Transition[] = [];
  for (const c of outcomes) {
    const { next, transition } = applyCheck(state, c === "P", alertAfter);
    state = next;
    transitions.push(transition);
  }
  return { state, transitions };
}

describe("applyCheck (spec: Monitor and webhook transitions)", () => {
  it("alertAfter 1: the first failure starts the outage", () => {
    const { state, transitions } = run("F", 1);
    expect(transitions).toEqual(["outage_started"]);
    expect(state).toEqual({ health: "outage", failureStreak: 1 });
  });

  it("alertAfter 3: the third consecutive failure starts it, no sooner", () => {
    expect(run("FFF", 3).transitions).toEqual(["none", "none", "outage_started"]);
    expect(run("FFPFF", 3).transitions.includes("outage_started")).toBe(false);
  });

  it("alertAfter 2 rides out a single failure", () => {
    const { state, transitions } = run("PFPPFP", 2);
    expect(transitions.every((t) => t === "none")).toBe(true);
    expect(state).toEqual({ health: "passing", failureStreak: 0 });
  });

  it("ten consecutive failures give exactly one outage start", () => {
    const { transitions, state } = run("FFFFFFFFFF", 2);
    expect(transitions.filter((t) => t === "outage_started")).toHaveLength(1);
    expect(state.failureStreak).toBe(10);
  });

  it("a pass during an outage recovers once; further passes do nothing", () => {
    const { transitions } = run("FFPPP", 1);
    expect(transitions).toEqual(["outage_started", "none", "recovered", "none", "none"]);
  });

  it("a failure below alertAfter leaves a passing monitor passing with its streak grown", () => {
    expect(run("PF", 3).state).toEqual({ health: "passing", failureStreak: 1 });
  });

  it("a cleared streak (resume) during an outage does not re-alert on the next failure", () => {
    const { transitions } = run("F", 1, { health: "outage", failureStreak: 0 });
    expect(transitions).toEqual(["none"]);
  });
});
