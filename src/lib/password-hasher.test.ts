import { describe, expect, it } from "vitest";
import { DomainError } from "./domain-errors.js";
import { PasswordHasher, type PasswordScheme } from "./password-hasher.js";

/** A scheme whose checks finish only when the test says, counting how many run at once. */
function heldScheme() {
  const pending: { password: string; finish: (ok: boolean) => void; fail: () => void }[] = [];
  let running = 0;
  let maxRunning = 0;
  const scheme: PasswordScheme = {
    hash: async (password) => ((await scheme.verify(password, "")) ? password : ""),
    verify: (password) => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      return new Promise<boolean>((resolve, reject) => {
        const done = () => {
          running -= 1;
        };
        pending.push({
          password,
          finish: (ok) => {
            done();
            resolve(ok);
          },
          fail: () => {
            done();
            reject(new Error("scrypt failed"));
          },
        });
      });
    },
  };
  return {
    scheme,
    pending,
    started: () => pending.map((p) => p.password),
    get maxRunning() {
      return maxRunning;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("PasswordHasher", () => {
  it("runs at most maxConcurrent checks at once; the rest wait their turn in order", async () => {
    const held = heldScheme();
    const hasher = new PasswordHasher({ maxConcurrent: 2, maxQueued: 4 }, undefined, held.scheme);
    const results = ["a", "b", "c", "d", "e", "f"].map((p) => hasher.verify(p, "stored"));
    await settle();
    expect(held.started()).toEqual(["a", "b"]);
    expect({ running: hasher.running, queued: hasher.queued }).toEqual({ running: 2, queued: 4 });
    // Each check that ends lets exactly the next one in.
    held.pending.shift()?.finish(true);
    await settle();
    expect(held.started()).toEqual(["b", "c"]);
    while (held.pending.length > 0) {
      held.pending.shift()?.finish(false);
      await settle();
    }
    expect(await Promise.all(results)).toEqual([true, false, false, false, false, false]);
    expect(held.maxRunning).toBe(2);
    expect({ running: hasher.running, queued: hasher.queued }).toEqual({ running: 0, queued: 0 });
  });

  it("refuses at once beyond the queue with unavailable and Retry-After, and counts it", async () => {
    const held = heldScheme();
    let refused = 0;
    const hasher = new PasswordHasher(
      { maxConcurrent: 1, maxQueued: 2 },
      () => {
        refused += 1;
      },
      held.scheme,
    );
    const admitted = [hasher.verify("a", "s"), hasher.hash("b"), hasher.verify("c", "s")];
    const overflow = await hasher.verify("d", "s").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(overflow).toBeInstanceOf(DomainError);
    expect(overflow).toMatchObject({ code: "unavailable", retryAfterSeconds: 1 });
    expect(refused).toBe(1);
    // The queue never held more than its bound, and the refused check never started.
    expect(hasher.queued).toBe(2);
    while (held.pending.length > 0) {
      held.pending.shift()?.finish(true);
      await settle();
    }
    expect(await Promise.all(admitted)).toEqual([true, "b", true]);
    expect(held.started()).not.toContain("d");
    // Room again once the queue drained.
    const again = hasher.verify("e", "s");
    await settle();
    held.pending.shift()?.finish(true);
    expect(await again).toBe(true);
  });

  it("gives a failed check's turn to the next", async () => {
    const held = heldScheme();
    const hasher = new PasswordHasher({ maxConcurrent: 1, maxQueued: 1 }, undefined, held.scheme);
    const first = hasher.verify("a", "s");
    const second = hasher.verify("b", "s");
    await settle();
    held.pending.shift()?.fail();
    await expect(first).rejects.toThrow("scrypt failed");
    await settle();
    expect(held.started()).toEqual(["b"]);
    held.pending.shift()?.finish(true);
    expect(await second).toBe(true);
    expect(hasher.running).toBe(0);
  });

  it("hashes and checks with scrypt by default", async () => {
    const hasher = new PasswordHasher({ maxConcurrent: 2, maxQueued: 0 });
    const stored = await hasher.hash("correct horse");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await hasher.verify("correct horse", stored)).toBe(true);
    expect(await hasher.verify("correct hors", stored)).toBe(false);
  });
});
