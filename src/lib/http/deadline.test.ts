import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startDeadline } from "./deadline.js";

describe("startDeadline", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("fires at the time limit with the timeout reason, and says it timed out", () => {
    const deadline = startDeadline(1000, undefined, { timeout: () => "late" });
    vi.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.reason).toBe("late");
    expect([deadline.timedOut, deadline.cancelled]).toEqual([true, false]);
  });

  it("fires when the caller's signal does (also one aborted already), and says it was cancelled", () => {
    const parent = new AbortController();
    const deadline = startDeadline(1000, parent.signal, { cancel: () => "stop" });
    parent.abort();
    expect(deadline.signal.reason).toBe("stop");
    expect([deadline.timedOut, deadline.cancelled]).toEqual([false, true]);
    vi.advanceTimersByTime(1000);
    expect(deadline.timedOut).toBe(false);
    expect(startDeadline(1000, parent.signal).cancelled).toBe(true);
  });

  it("makes a reason only when the signal fires with it", () => {
    const made: string[] = [];
    const reasons = {
      timeout: () => made.push("timeout"),
      cancel: () => made.push("cancel"),
    };
    const parent = new AbortController();
    startDeadline(1000, parent.signal, reasons).dispose();
    vi.advanceTimersByTime(5000);
    expect(made).toEqual([]);
    startDeadline(1000, undefined, reasons);
    vi.advanceTimersByTime(1000);
    expect(made).toEqual(["timeout"]);
  });

  it("once disposed, neither the timer nor the caller's signal fires it", () => {
    const parent = new AbortController();
    const deadline = startDeadline(1000, parent.signal);
    deadline.dispose();
    parent.abort();
    vi.advanceTimersByTime(5000);
    expect(deadline.signal.aborted).toBe(false);
  });
});
