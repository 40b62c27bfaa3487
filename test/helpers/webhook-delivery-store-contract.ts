import { expect, it } from "vitest";
import type { MetaStore } from "../../src/meta/meta-store.js";
import { at, delivery, outcome, projectId, underLease } from "./webhook-store-fixtures.js";

/**
 * The durable webhook delivery queue and its attempt log: duplicates, leases, outcomes,
 * hand-backs, retention and cascades. Runs after webhookEndpointContract, on its endpoints.
 */
export function webhookDeliveryContract(getStore: () => MetaStore): void {
  it("enqueues webhook deliveries once per endpoint and event id", async () => {
    const store = getStore();
    const queue = store.repos.webhookDeliveries;
    expect(await queue.nextDueAt()).toBeUndefined();
    // Resolves with the ids it inserted.
    expect(
      await queue.enqueue([
        delivery("dlv_1", "whe_1", "evt_1", at(10)),
        delivery("dlv_2", "whe_1", "evt_2", at(5)),
        delivery("dlv_3", "whe_3", "evt_1", at(10)),
        delivery("dlv_later", "whe_1", "evt_3", at(10), at(100)),
      ]),
    ).toEqual(expect.arrayContaining(["dlv_1", "dlv_2", "dlv_3", "dlv_later"]));
    expect(await queue.enqueue([])).toEqual([]);
    // The same event for the same endpoint again (alone, and beside a new one): left as it is.
    expect(
      await queue.enqueue([
        { ...delivery("dlv_dup", "whe_1", "evt_1", at(11)), payload: '{"x":2}' },
      ]),
    ).toEqual([]);
    const inserted = await store.transaction(({ repos }) =>
      repos.webhookDeliveries.enqueue([
        delivery("dlv_dup2", "whe_3", "evt_1", at(12)),
        delivery("dlv_4", "whe_3", "evt_4", at(500), at(500)),
        delivery("dlv_4dup", "whe_3", "evt_4", at(501), at(501)),
      ]),
    );
    expect(inserted).toEqual(["dlv_4"]);
    expect(await queue.findById("dlv_dup")).toBeUndefined();
    expect(await queue.findById("dlv_dup2")).toBeUndefined();
    expect(await queue.findById("dlv_4dup")).toBeUndefined();
    expect(await queue.findById("dlv_1")).toEqual({
      id: "dlv_1",
      projectId,
      endpointId: "whe_1",
      messageId: "msg_evt_1",
      eventId: "evt_1",
      event: "monitor.down",
      // The JSON text as it was stored, byte for byte.
      payload: '{"eventId":"evt_1","nested":{"n":1}}',
      status: "pending",
      attempts: 0,
      nextAttemptAt: at(10),
      createdAt: at(10),
      finishedAt: null,
    });
    expect(await queue.findById("dlv_4")).toMatchObject({ status: "pending", createdAt: at(500) });
    expect(await queue.nextDueAt()).toBe(at(5));
  });

  it("claims due webhook deliveries once, oldest first, and respects leases", async () => {
    const queue = getStore().repos.webhookDeliveries;
    expect(await queue.claimDue(at(4), 10, at(34))).toEqual([]);
    const [oldest, ...none] = await queue.claimDue(at(20), 1, at(50));
    expect(none).toEqual([]);
    expect(oldest).toMatchObject({ id: "dlv_2", nextAttemptAt: at(50), attempts: 0 });
    const rest = await queue.claimDue(at(20), 10, at(50));
    expect(rest.map((d) => d.id)).toEqual(["dlv_1", "dlv_3"]);
    expect(rest.every((d) => d.nextAttemptAt === at(50) && d.status === "pending")).toBe(true);
    // Leased: nobody gets them again until the lease ends.
    expect(await queue.claimDue(at(49), 10, at(79))).toEqual([]);
    expect(await queue.nextDueAt()).toBe(at(50));
    // Two claimers at once after the lease: each delivery goes to exactly one of them.
    const [a, b] = await Promise.all([
      queue.claimDue(at(60), 10, at(90)),
      queue.claimDue(at(60), 10, at(90)),
    ]);
    expect([...(a ?? []), ...(b ?? [])].map((d) => d.id).sort()).toEqual([
      "dlv_1",
      "dlv_2",
      "dlv_3",
    ]);
    expect(await queue.nextDueAt()).toBe(at(90));
  });

  it("hands claimed webhook deliveries back, due again at once", async () => {
    const queue = getStore().repos.webhookDeliveries;
    await queue.release(["dlv_1", "dlv_3", "dlv_missing"], at(70));
    await queue.release([], at(70));
    expect(await queue.nextDueAt()).toBe(at(70));
    const again = await queue.claimDue(at(70), 10, at(100));
    expect(again.map((d) => d.id)).toEqual(["dlv_1", "dlv_3"]);
    expect(await queue.claimDue(at(70), 10, at(100))).toEqual([]);
  });

  it("records webhook attempts with their delivery's next state", async () => {
    const store = getStore();
    const queue = store.repos.webhookDeliveries;
    const made = await underLease(getStore, [
      outcome("att_2a", "dlv_2", "whe_1", 1, 200, at(71), {
        status: "succeeded",
        nextAttemptAt: null,
        finishedAt: at(71),
      }),
      outcome("att_1a", "dlv_1", "whe_1", 1, 500, at(72), {
        status: "pending",
        nextAttemptAt: at(132),
        finishedAt: null,
      }),
      outcome("att_3a", "dlv_3", "whe_3", 1, 0, at(120), {
        status: "pending",
        nextAttemptAt: at(180),
        finishedAt: null,
      }),
      // Its delivery is gone (the endpoint was deleted meanwhile): dropped without an error.
      outcome("att_gone", "dlv_gone", "whe_1", 1, 200, at(73), {
        status: "succeeded",
        nextAttemptAt: null,
        finishedAt: at(73),
      }),
    ]);
    await store.transaction(({ repos }) => repos.webhookDeliveries.recordOutcomes(made));
    await store.transaction(({ repos }) => repos.webhookDeliveries.recordOutcomes([]));
    expect(await queue.findById("dlv_2")).toMatchObject({
      status: "succeeded",
      attempts: 1,
      nextAttemptAt: null,
      finishedAt: at(71),
    });
    expect(await queue.findById("dlv_1")).toMatchObject({
      status: "pending",
      attempts: 1,
      nextAttemptAt: at(132),
      finishedAt: null,
    });
    expect(await queue.findById("dlv_gone")).toBeUndefined();
    // Newest first; the retry time shows on the latest attempt of a pending delivery only.
    const log = await queue.listAttempts("whe_1", 50);
    expect(log.map((a) => [a.id, a.retryAt])).toEqual([
      ["att_1a", at(132)],
      ["att_2a", null],
    ]);
    expect(log[0]).toEqual({
      id: "att_1a",
      deliveryId: "dlv_1",
      endpointId: "whe_1",
      messageId: "msg_of_dlv_1",
      event: "monitor.down",
      attempt: 1,
      statusCode: 500,
      durationMs: 12,
      success: false,
      body: "answered 500",
      createdAt: at(72),
      retryAt: at(132),
    });
    expect(log[1]).toMatchObject({ success: true, statusCode: 200 });
    expect((await queue.listAttempts("whe_3", 50)).map((a) => [a.id, a.retryAt])).toEqual([
      ["att_3a", at(180)],
    ]);
    expect(await queue.nextDueAt()).toBe(at(100));

    // Attempt 2 fails too: failed for good, no retry time anywhere.
    // Returned in creation order (both were created at 10 s, so by id).
    expect((await queue.claimDue(at(132), 10, at(162))).map((d) => d.id)).toEqual([
      "dlv_1",
      "dlv_later",
    ]);
    await queue.release(["dlv_later"], at(100));
    const retried = await underLease(getStore, [
      outcome("att_1b", "dlv_1", "whe_1", 2, 503, at(133), {
        status: "failed",
        nextAttemptAt: null,
        finishedAt: at(133),
      }),
    ]);
    await store.transaction(({ repos }) => repos.webhookDeliveries.recordOutcomes(retried));
    expect(await queue.findById("dlv_1")).toMatchObject({
      status: "failed",
      attempts: 2,
      nextAttemptAt: null,
      finishedAt: at(133),
    });
    expect((await queue.listAttempts("whe_1", 50)).map((a) => [a.id, a.retryAt])).toEqual([
      ["att_1b", null],
      ["att_1a", null],
      ["att_2a", null],
    ]);
    expect((await queue.listAttempts("whe_1", 2)).map((a) => a.id)).toEqual(["att_1b", "att_1a"]);
    // Finished deliveries are never claimed again.
    expect((await queue.claimDue(at(10_000), 10, at(10_030))).map((d) => d.id).sort()).toEqual([
      "dlv_3",
      "dlv_4",
      "dlv_later",
    ]);
    await queue.release(["dlv_3", "dlv_4", "dlv_later"], at(100));
  });

  it("cancels pending webhook deliveries and leaves finished ones alone", async () => {
    const queue = getStore().repos.webhookDeliveries;
    await queue.cancel(["dlv_3", "dlv_2", "dlv_missing"], at(150));
    await queue.cancel([], at(150));
    expect(await queue.findById("dlv_3")).toMatchObject({
      status: "failed",
      attempts: 1,
      nextAttemptAt: null,
      finishedAt: at(150),
    });
    expect(await queue.findById("dlv_2")).toMatchObject({
      status: "succeeded",
      finishedAt: at(71),
    });
    expect((await queue.listAttempts("whe_3", 50)).map((a) => [a.id, a.retryAt])).toEqual([
      ["att_3a", null],
    ]);
    // Released or not, a finished delivery stays finished.
    await queue.release(["dlv_3"], at(150));
    expect(await queue.findById("dlv_3")).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(await queue.nextDueAt()).toBe(at(100));
  });

  it("deletes old webhook attempts and finished deliveries in batches", async () => {
    const queue = getStore().repos.webhookDeliveries;
    // Attempts before 100 s: att_2a (71) and att_1a (72).
    expect(await queue.deleteAttemptsBefore(at(100), 1)).toBe(1);
    expect(await queue.deleteAttemptsBefore(at(100), 10)).toBe(1);
    expect(await queue.deleteAttemptsBefore(at(100), 10)).toBe(0);
    expect((await queue.listAttempts("whe_1", 50)).map((a) => a.id)).toEqual(["att_1b"]);
    // Finished before 140 s: dlv_2 (71) and dlv_1 (133), with what is left of their attempts;
    // pending ones (dlv_later, dlv_4) and dlv_3 (150) stay.
    expect(await queue.deleteFinishedBefore(at(140), 1)).toBe(1);
    expect(await queue.deleteFinishedBefore(at(140), 10)).toBe(1);
    expect(await queue.deleteFinishedBefore(at(140), 10)).toBe(0);
    expect(await queue.findById("dlv_1")).toBeUndefined();
    expect(await queue.findById("dlv_2")).toBeUndefined();
    expect(await queue.listAttempts("whe_1", 50)).toEqual([]);
    expect(await queue.findById("dlv_later")).toMatchObject({ status: "pending" });
    expect(await queue.findById("dlv_3")).toMatchObject({ status: "failed" });
  });

  it("logs an attempt made under a lease that ran out, without moving its delivery", async () => {
    const store = getStore();
    const queue = store.repos.webhookDeliveries;
    // As if claimed with a lease until 330 s; that claimer stalls past it and another claims
    // the delivery again, leased until 361 s (release moves next_attempt_at like a claim).
    await queue.enqueue([delivery("dlv_fence", "whe_3", "evt_fence", at(300), at(330))]);
    await queue.release(["dlv_fence"], at(361));
    const made = (id: string, leaseUntil: string) => ({
      ...outcome(id, "dlv_fence", "whe_3", 1, 200, at(301), {
        status: "succeeded",
        nextAttemptAt: null,
        finishedAt: at(301),
      }),
      leaseUntil,
    });
    expect(
      await store.transaction(({ repos }) =>
        repos.webhookDeliveries.recordOutcomes([made("att_stale", at(330))]),
      ),
    ).toBe(0);
    expect(await queue.findById("dlv_fence")).toMatchObject({ status: "pending", attempts: 0 });
    expect(
      await store.transaction(({ repos }) =>
        repos.webhookDeliveries.recordOutcomes([made("att_live", at(361))]),
      ),
    ).toBe(1);
    expect(await queue.findById("dlv_fence")).toMatchObject({ status: "succeeded", attempts: 1 });
    // Recording the same attempt again finds the delivery moved on.
    expect(
      await store.transaction(({ repos }) =>
        repos.webhookDeliveries.recordOutcomes([made("att_again", at(361))]),
      ),
    ).toBe(0);
    const ids = (await queue.listAttempts("whe_3", 50)).map((a) => a.id);
    // Every attempt made is in the log (spec), even those that could not move the delivery.
    expect(ids).toEqual(expect.arrayContaining(["att_live", "att_stale", "att_again"]));
  });

  it("records a batch in which one delivery has two outcomes in the order they came", async () => {
    const store = getStore();
    const queue = store.repos.webhookDeliveries;
    await queue.enqueue([
      delivery("dlv_twice", "whe_3", "evt_twice", at(400), at(430)),
      delivery("dlv_once", "whe_3", "evt_once", at(400), at(430)),
    ]);
    const made = (id: string, deliveryId: string, statusCode: number) => ({
      ...outcome(id, deliveryId, "whe_3", 1, statusCode, at(401), {
        status: statusCode === 200 ? "succeeded" : "pending",
        nextAttemptAt: statusCode === 200 ? null : at(461),
        finishedAt: statusCode === 200 ? at(401) : null,
      }),
      leaseUntil: at(430),
    });
    // The first outcome of dlv_twice moves it; the second finds it moved on and is only logged.
    const moved = await store.transaction(({ repos }) =>
      repos.webhookDeliveries.recordOutcomes([
        made("att_twice_1", "dlv_twice", 500),
        made("att_once", "dlv_once", 200),
        made("att_twice_2", "dlv_twice", 200),
      ]),
    );
    expect(moved).toBe(2);
    expect(await queue.findById("dlv_twice")).toMatchObject({
      status: "pending",
      attempts: 1,
      nextAttemptAt: at(461),
    });
    expect(await queue.findById("dlv_once")).toMatchObject({ status: "succeeded", attempts: 1 });
    const ids = (await queue.listAttempts("whe_3", 50)).map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining(["att_twice_1", "att_twice_2", "att_once"]));
  });

  it("deletes an endpoint with its deliveries and attempts", async () => {
    const { repos } = getStore();
    const queue = repos.webhookDeliveries;
    // Give whe_1 a fresh attempt so the cascade has one to remove.
    await queue.recordOutcomes(
      await underLease(getStore, [
        outcome("att_lat", "dlv_later", "whe_1", 1, 500, at(200), {
          status: "pending",
          nextAttemptAt: at(260),
          finishedAt: null,
        }),
      ]),
    );
    expect((await queue.listAttempts("whe_1", 50)).map((a) => a.id)).toEqual(["att_lat"]);
    expect(await repos.webhookEndpoints.delete("whe_1")).toBe(true);
    expect(await repos.webhookEndpoints.delete("whe_3")).toBe(true);
    for (const id of ["dlv_later", "dlv_3", "dlv_4"])
      expect(await queue.findById(id)).toBeUndefined();
    expect(await queue.listAttempts("whe_1", 50)).toEqual([]);
    // No attempt row outlived its endpoint (att_lat and att_3a went with the cascade).
    expect(await queue.deleteAttemptsBefore(at(1_000_000), 1000)).toBe(0);
    expect(await queue.nextDueAt()).toBeUndefined();
    expect(await repos.webhookEndpoints.findById("whe_2")).toMatchObject({ isActive: false });
  });
}
