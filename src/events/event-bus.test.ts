import { describe, expect, it } from "vitest";
import { createEventBus, type DomainEvent } from "./event-bus.js";

const event: DomainEvent = {
  id: "ntf_1",
  type: "monitor.down",
  projectId: "prj_1",
  data: { monitor: "m" },
  occurredAt: "2026-01-01T00:00:00.000Z",
};

describe("createEventBus", () => {
  it("delivers to every subscriber and waits for them", async () => {
    const bus = createEventBus();
    const seen: string[] = [];
    bus.subscribe(async (e) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen.push(`slow:${e.id}`);
    });
    bus.subscribe((e) => {
      seen.push(`fast:${e.id}`);
    });
    await bus.publish(event);
    expect(seen.sort()).toEqual(["fast:ntf_1", "slow:ntf_1"]);
  });

  it("publishes to nobody without error, and stops delivering after unsubscribe", async () => {
    const bus = createEventBus();
    await bus.publish(event);
    const seen: DomainEvent[] = [];
    const unsubscribe = bus.subscribe((e) => {
      seen.push(e);
    });
    await bus.publish(event);
    unsubscribe();
    unsubscribe();
    await bus.publish(event);
    expect(seen).toEqual([event]);
  });

  it("rejects when a subscriber fails, after the others have run", async () => {
    const bus = createEventBus();
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error("endpoint store down");
    });
    bus.subscribe(() => {
      seen.push("other");
    });
    await expect(bus.publish(event)).rejects.toThrow("endpoint store down");
    expect(seen).toEqual(["other"]);
    bus.subscribe(async () => {
      throw new Error("second");
    });
    await expect(bus.publish(event)).rejects.toThrow(/2 subscribers failed: .*second/);
  });
});
