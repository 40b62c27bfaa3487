import {
  createPeriodicScheduler,
  type PeriodicScheduler,
  type PeriodicSchedulerDeps,
  type ScheduleEntry,
} from "./periodic-scheduler.js";
import { createPeriodicTask } from "./periodic-task.js";
import type { HeldLease, LeaseFence, LeaseKind, WorkLeasePort } from "./work-lease-port.js";

/** A write under a lease found the lease taken over (or the slot already recorded): nothing was written. */
export class LeaseLostError extends Error {
  constructor(readonly fence: LeaseFence) {
    super(
      `The ${fence.kind} lease of ${fence.entityId} is no longer held under token ${fence.token}`,
    );
    this.name = "LeaseLostError";
  }
}

/** An entity to schedule; `fresh` when it never ran, so its first run comes at once. */
export type LeasableEntry = ScheduleEntry & { fresh?: boolean };

/** How a worker takes part in leasing: who it is, where leases live, how long they last. */
export interface WorkerLeases {
  /** This process, unique per start (a restarted worker is a new worker). */
  workerId: string;
  leases: WorkLeasePort;
  /** How long a lease lasts unrenewed: a dead worker's share moves on within it. */
  leaseMs: number;
}

export interface LeasedSchedulerDeps
  extends Pick<
      PeriodicSchedulerDeps,
      "what" | "clock" | "concurrency" | "logger" | "onSkipped" | "onLag" | "tickMs"
    >,
    WorkerLeases {
  kind: LeaseKind;
  /** Every entity that should run, on every node's edits: read at start and every `syncMs`. */
  listActive(): Promise<LeasableEntry[]>;
  /**
   * A cheap fingerprint of what listActive would return; while it stays the same the full list
   * is not read again (it is still read every 30 syncs, in case an edit kept it).
   */
  version?(): Promise<string>;
  /** Runs one slot under its fence; throws LeaseLostError when the fenced write was refused. */
  run(id: string, fence: LeaseFence): Promise<unknown>;
  isRunning(id: string): boolean;
  idle(): Promise<void>;
  /** How often the entity list is re-read for other nodes' edits (default 10 s). */
  syncMs?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The periodic scheduler for several workers: each worker runs only the entities whose lease it
 * holds, taking an even share (entities ÷ live workers), renewing its heartbeat (which keeps all
 * of its leases) every third of the lease, and handing extra ones back when workers join. Every run's record is fenced by the
 * lease's token and slot (see LeaseFence), so a slot is recorded once however leases move; a
 * lease taken over after its holder died resumes at the slot the holder missed.
 */
export function createLeasedScheduler(deps: LeasedSchedulerDeps): PeriodicScheduler {
  const { kind, workerId, leases, clock, logger } = deps;
  const held = new Map<string, HeldLease>();
  let entries = new Map<string, LeasableEntry>();
  /** Asked to run at once (created or resumed here) but not held yet. */
  const soon = new Set<string>();
  const syncMs = deps.syncMs ?? 10_000;
  let lastSync = Number.NEGATIVE_INFINITY;
  let lastVersion: string | undefined;
  let syncsSkipped = 0;
  let stopped = true;
  /** Live workers of this kind, this one included, as the last heartbeat counted them. */
  let workers = 1;
  let running: Promise<void> | undefined;
  let again = false;
  /** Until when the last successful renewal holds this worker's leases (epoch ms). */
  let heldUntil = 0;

  const inner = createPeriodicScheduler({
    what: deps.what,
    runner: {
      run: (id, slot) => runFenced(id, slot),
      isRunning: deps.isRunning,
      idle: deps.idle,
    },
    // The inner scheduler's own sync sees only what this worker holds.
    listActive: async () =>
      [...held.keys()].flatMap((id) => {
        const entry = entries.get(id);
        if (!entry) return [];
        const { tenant, group } = entry;
        return [
          {
            id,
            periodMs: entry.periodMs,
            ...(tenant ? { tenant } : {}),
            ...(group ? { group } : {}),
          },
        ];
      }),
    clock,
    concurrency: deps.concurrency,
    logger,
    ...(deps.onSkipped ? { onSkipped: deps.onSkipped } : {}),
    ...(deps.onLag ? { onLag: deps.onLag } : {}),
    ...(deps.tickMs ? { tickMs: deps.tickMs } : {}),
  });

  async function runFenced(id: string, slot: number): Promise<unknown> {
    const lease = held.get(id);
    if (!lease) return false;
    if (clock.now().getTime() >= heldUntil) {
      // Renewals failed for a whole lease (store unreachable): another worker may hold it now.
      drop(id);
      return false;
    }
    try {
      const recorded = await deps.run(id, {
        kind,
        entityId: id,
        owner: workerId,
        token: lease.token,
        slot,
      });
      if (held.get(id) === lease) lease.lastSlot = slot;
      return recorded;
    } catch (error) {
      if (!(error instanceof LeaseLostError)) throw error;
      logger.info({ id, slot }, `${deps.what} lease lost; its run was not recorded`);
      if (held.get(id) === lease) {
        held.delete(id);
        // Handed back so it is claimed afresh, with the slot another worker recorded.
        await leases.release(kind, workerId, [lease]);
      }
      return false;
    }
  }

  function take(lease: HeldLease): void {
    held.set(lease.entityId, lease);
    const entry = entries.get(lease.entityId);
    if (!entry) return; // Unknown yet (created since the last sync): scheduled after the next one.
    const first = lease.lastSlot === 0 && (entry.fresh === true || soon.has(entry.id));
    soon.delete(entry.id);
    inner.schedule({ ...entry, lastSlot: lease.lastSlot }, { soon: first });
  }

  function drop(id: string): void {
    held.delete(id);
    inner.unschedule(id);
  }

  /** Whether the entity set is known unchanged since the last full read (then it is skipped). */
  async function unchanged(now: number): Promise<boolean> {
    if (!deps.version) return false;
    const version = await deps.version();
    if (version === lastVersion && entries.size > 0 && syncsSkipped < 30) {
      syncsSkipped++;
      lastSync = now;
      return true;
    }
    lastVersion = version;
    syncsSkipped = 0;
    return false;
  }

  async function round(): Promise<void> {
    const now = clock.now().getTime();
    if (now - lastSync >= syncMs && !(await unchanged(now))) {
      const list = await deps.listActive();
      const before = entries;
      entries = new Map(list.map((e) => [e.id, e]));
      lastSync = now;
      await leases.reconcile(kind, [...entries.keys()]);
      // Held entries that became known, or whose period changed, get (re)scheduled.
      for (const [id, entry] of entries) {
        const lease = held.get(id);
        if (lease && before.get(id)?.periodMs !== entry.periodMs) take(lease);
      }
    }
    // Leases taken over while this worker's heartbeat had lapsed are dropped.
    const current = new Map((await leases.held(kind, workerId)).map((l) => [l.entityId, l]));
    for (const [id, lease] of held) {
      if (current.get(id)?.token !== lease.token) drop(id);
    }
    for (const [id, lease] of current) if (!held.has(id)) take(lease);
    const target = Math.ceil(entries.size / workers);
    if (held.size < target) {
      const claimed = await leases.claim(kind, workerId, iso(now), target - held.size);
      if (!stopped) for (const lease of claimed) take(lease);
      else await leases.release(kind, workerId, claimed);
    } else if (held.size > target) {
      // Workers joined: hand back the extra leases that are not running now.
      const extra: HeldLease[] = [];
      for (const [id, lease] of held) {
        if (extra.length >= held.size - target) break;
        if (!deps.isRunning(id)) extra.push(lease);
      }
      for (const lease of extra) drop(lease.entityId);
      await leases.release(kind, workerId, extra);
    }
  }

  /** Runs a round now, or right after the one running; never two at once. */
  function kick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await round();
        } catch (error) {
          logger.warn({ err: (error as Error).message }, `${deps.what} lease round failed`);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  /**
   * Renews the heartbeat, which keeps every lease of this worker. On a timer of its own: a round
   * slowed by a busy store must not let this worker's share lapse to the others.
   */
  const heartbeat = createPeriodicTask({
    async run() {
      if (stopped) return;
      const now = clock.now().getTime();
      workers = await leases.heartbeat(kind, workerId, iso(now), iso(now + deps.leaseMs));
      heldUntil = now + deps.leaseMs;
    },
    intervalMs: deps.leaseMs / 3,
    onError: (error) => logger.warn({ err: error.message }, `${deps.what} heartbeat failed`),
  });
  /** Rounds: kick() logs its own failures. */
  const rounds = createPeriodicTask({
    run: kick,
    intervalMs: deps.leaseMs / 3,
    onError: () => undefined,
  });

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      await inner.start();
      heartbeat.start();
      await heartbeat.runOnce();
      rounds.start();
      await rounds.runOnce();
      logger.info(
        { workerId, held: held.size, entries: entries.size },
        `${deps.what} scheduler started (leased)`,
      );
    },
    schedule(entry, options = {}) {
      entries.set(entry.id, { ...entries.get(entry.id), ...entry });
      const lease = held.get(entry.id);
      if (lease) {
        inner.schedule({ ...entry, lastSlot: lease.lastSlot }, options);
        return;
      }
      if (options.soon) soon.add(entry.id);
      // Its lease row is made at the next round, now, by a full read.
      lastSync = Number.NEGATIVE_INFINITY;
      lastVersion = undefined;
      void kick();
    },
    unschedule(id) {
      entries.delete(id);
      soon.delete(id);
      const lease = held.get(id);
      drop(id);
      if (lease)
        leases
          .release(kind, workerId, [lease])
          .catch((error: unknown) =>
            logger.warn({ id, err: (error as Error).message }, `${deps.what} lease release failed`),
          );
    },
    async stop() {
      stopped = true;
      // A heartbeat landing after leave() would count this worker alive for one more lease.
      await heartbeat.stop();
      await rounds.stop();
      await running;
      await inner.stop();
      held.clear();
      // Leaving frees this worker's leases at once: the others take them over without waiting.
      await leases
        .leave(kind, workerId)
        .catch((error: unknown) =>
          logger.warn({ err: (error as Error).message }, `${deps.what} leases not handed back`),
        );
    },
    stats: () => inner.stats(),
  };
}
