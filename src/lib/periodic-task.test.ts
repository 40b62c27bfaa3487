import { describe, expect, it } from "vitest";
import { createPeriodicTask } from "./periodic-task.js";

describe("createPeriodicTask", () => {
  it("joins a run in flight instead of starting a second one", async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const task = createPeriodicTask({
      run: () => {
        runs++;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      intervalMs: 60_000,
      onError: () => undefined,
    });
    const first = task.runOnce();
    const second = task.runOnce();
    expect(runs).toBe(1);
    release();
    await Promise.all([first, second]);
    const third = task.runOnce();
    expect(runs).toBe(2);
    release();
    await third;
  });

  it("hands a failed run to onError and runs again next time", async () => {
    const errors: string[] = [];
    let fail = true;
    const task = createPeriodicTask({
      run: async () => {
        if (fail) throw new Error("store down");
      },
      intervalMs: 60_000,
      onError: (error) => errors.push(error.message),
    });
    await task.runOnce();
    fail = false;
    await task.runOnce();
    expect(errors).toEqual(["store down"]);
  });

  it("stop waits for the run in flight", async () => {
    let done = false;
    const task = createPeriodicTask({
      run: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        done = true;
      },
      intervalMs: 60_000,
      onError: () => undefined,
    });
    task.start();
    await task.stop();
    expect(done).toBe(true);
  });
});
