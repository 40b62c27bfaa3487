import type { Logger } from "pino";
import type { Clock } from "./clock.js";
import { nextInTurn, type TurnTaker } from "./fair-turn.js";

/** What the scheduler is told about an entry (a monitor, an alert rule): its id and period. */
export interface ScheduleEntry {
  id: string;
  periodMs: number;
  /**
   * Whose entry this is (a project) and its tenant's group (its organization): due runs take
   * turns between groups and then tenants, a tenant holds half of the concurrency at most and a
   * group all but one place, so one with many slow entries never starves another's.
   */
  tenant?: string;
  group?: string;
  /**
   * The last slot (epoch ms) whose run was recorded, when known (a lease taken over): a slot
   * missed since is run at once, late, instead of waiting for the next one. 0 = never run.
   */
  lastSlot?: number;
}

/** What runs an entry: one run at a time per id; the scheduler never overlaps an entry with itself. */
export interface PeriodicRunner {
  /**
   * Runs the entry now for `slot` (the epoch ms of the grid slot the run stands for); resolves
   * false (or undefined) when it no longer exists or is no longer this process's, so it is dropped.
   */
  run(id: string, slot: number): Promise<unknown>;
  isRunning(id: string): boolean;
  idle(): Promise<void>;
}

export interface PeriodicSchedulerDeps {
  /** Names the work in logs ("monitor", "alert rule"). */
  what: string;
  runner: PeriodicRunner;
  /** Every active entry: read at start, then every `syncIntervalMs` to pick up other nodes' edits. */
  listActive(): Promise<ScheduleEntry[]>;
  syncIntervalMs?: number;
  clock: Clock;
  /**
   * Runs in flight at once, of which one tenant (ScheduleEntry.tenant) holds half at most and one
   * group all but one; due runs beyond wait their turn (see nextInTurn).
   */
  concurrency: number;
  logger: Logger;
  /** A slot given up (the previous run still going, or a whole period behind). */
  onSkipped?: () => void;
  /** How late a run started after its slot, in seconds. */
  onLag?: (seconds: number) => void;
  /**
   * Wakes only on multiples of this many ms (epoch-aligned), running every slot due by then:
   * slots start up to this late, and spread slots share a wake-up instead of each taking one
   * (~100 µs of CPU each on a busy machine). 0 or absent: each slot at its own time.
   */
  tickMs?: number;
}

/** Keeps every active entry on its period; the in-process seam a leased multi-node scheduler replaces. */
export interface PeriodicScheduler {
  start(): Promise<void>;
  /** Adds or re-times an entry; `soon` runs it now (new or resumed entries). */
  schedule(entry: ScheduleEntry, options?: { soon?: boolean }): void;
  unschedule(id: string): void;
  stop(): Promise<void>;
  stats(): { scheduled: number; queued: number; running: number };
}

/** FNV-1a of the id: a stable offset within the period, so slots spread evenly and survive restarts. */
function offsetOf(id: string, periodMs: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % periodMs;
}

/** The first slot of this entry strictly after `t`: slots are `k·period + offset`. */
export function nextSlot(id: string, periodMs: number, t: number): number {
  const offset = offsetOf(id, periodMs);
  return (Math.floor((t - offset) / periodMs) + 1) * periodMs + offset;
}

interface Slot extends TurnTaker {
  id: string;
  periodMs: number;
  /** When to run; before now for a missed slot being caught up. */
  dueAt: number;
  /** The grid slot the run stands for: dueAt, except a run at once stands for the slot before. */
  slot: number;
}

/** The last slot of this entry at or before `t`. */
export function slotAtOrBefore(id: string, periodMs: number, t: number): number {
  return nextSlot(id, periodMs, t) - periodMs;
}

/**
 * The slot a run at `t` stands for: the nearest one. A run at once (a new entry) less than half
 * a period before a slot takes that slot's place (the next run comes a period after it); a run
 * caught up late, less than half a period after its slot, is that slot's.
 */
export function nearestSlot(id: string, periodMs: number, t: number): number {
  const before = slotAtOrBefore(id, periodMs, t);
  return t - before < periodMs / 2 ? before : before + periodMs;
}

/** A binary min-heap on dueAt; replaced entries are skipped when popped (lazy deletion). */
class SlotHeap {
  private readonly items: Slot[] = [];
  get size() {
    return this.items.length;
  }
  peek(): Slot | undefined {
    return this.items[0];
  }
  push(slot: Slot): void {
    const items = this.items;
    items.push(slot);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent] as Slot;
      if (p.dueAt <= slot.dueAt) break;
      items[i] = p;
      i = parent;
    }
    items[i] = slot;
  }
  pop(): Slot | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && (items[right] as Slot).dueAt < (items[left] as Slot).dueAt
          ? right
          : left;
      if ((items[child] as Slot).dueAt >= last.dueAt) break;
      items[i] = items[child] as Slot;
      i = child;
    }
    items[i] = last;
    return top;
  }
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** An entry's tenant and group; "" for none (such entries share no bound). */
const turnOf = (entry: Partial<TurnTaker>): TurnTaker => ({
  tenant: entry.tenant ?? "",
  group: entry.group ?? "",
});

/** Adds `delta` to a key's count, forgetting a key whose count falls to 0. */
function count(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

/** A due run waiting for a free place under the concurrency bound. */
interface Job extends TurnTaker {
  id: string;
  periodMs: number;
  slot: number;
  dueAt: number;
}

export function createPeriodicScheduler(deps: PeriodicSchedulerDeps): PeriodicScheduler {
  const heap = new SlotHeap();
  const current = new Map<string, Slot>();
  const queue: Job[] = [];
  const queued = new Set<string>();
  let running = 0;
  /** Runs in flight by tenant and by group, and how many one tenant and one group may hold. */
  const runningBy = { tenants: new Map<string, number>(), groups: new Map<string, number>() };
  const perTenant = Math.max(1, Math.floor(deps.concurrency / 2));
  const perGroup = Math.max(1, deps.concurrency - 1);
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  const now = () => deps.clock.now().getTime();

  function arm(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (stopped) return;
    let top = heap.peek();
    while (top && current.get(top.id) !== top) {
      heap.pop();
      top = heap.peek();
    }
    if (!top) return;
    const tick = deps.tickMs ?? 0;
    const wakeAt = tick > 0 ? Math.ceil(top.dueAt / tick) * tick : top.dueAt;
    timer = setTimeout(fire, Math.min(MAX_TIMER_MS, Math.max(0, wakeAt - now())));
    timer.unref();
  }

  function fire(): void {
    timer = undefined;
    const t = now();
    for (let top = heap.peek(); top && top.dueAt <= t; top = heap.peek()) {
      heap.pop();
      if (current.get(top.id) !== top) continue;
      if (deps.runner.isRunning(top.id) || queued.has(top.id)) {
        // Never overlap an entry's own previous run: this slot is given up.
        deps.onSkipped?.();
        deps.logger.debug(
          { id: top.id },
          `${deps.what} run skipped: the previous run is still going`,
        );
      } else {
        queue.push({
          id: top.id,
          periodMs: top.periodMs,
          tenant: top.tenant,
          group: top.group,
          slot: top.slot,
          dueAt: top.dueAt,
        });
        queued.add(top.id);
      }
      // The next slot of the entry's own grid at least half a period on (a first run
      // at once rejoins its grid), unless we fell a whole period behind.
      let dueAt = nextSlot(top.id, top.periodMs, top.dueAt + top.periodMs / 2);
      if (dueAt <= t) {
        deps.onSkipped?.();
        dueAt = nextSlot(top.id, top.periodMs, t);
      }
      const next = { ...turnOf(top), id: top.id, periodMs: top.periodMs, dueAt, slot: dueAt };
      current.set(top.id, next);
      heap.push(next);
    }
    pump();
    arm();
  }

  /** Whether a job may start now under its tenant's and group's shares (unnamed ones have none). */
  const mayStart = (job: Job): boolean =>
    (job.tenant === "" || (runningBy.tenants.get(job.tenant) ?? 0) < perTenant) &&
    (job.group === "" || (runningBy.groups.get(job.group) ?? 0) < perGroup);

  function pump(): void {
    while (!stopped && running < deps.concurrency) {
      // Jobs are queued as they fall due: the first of a tenant is its oldest.
      const index = nextInTurn(queue, runningBy, mayStart);
      if (index < 0) return;
      const [job] = queue.splice(index, 1) as [Job];
      queued.delete(job.id);
      if (!current.has(job.id)) continue;
      running++;
      count(runningBy.tenants, job.tenant, 1);
      count(runningBy.groups, job.group, 1);
      const t = now();
      deps.onLag?.(Math.max(0, t - job.dueAt) / 1000);
      deps.runner
        .run(job.id, slotStartingAt(job, t))
        .then((recorded) => {
          // Deleted or paused meanwhile (perhaps on another node): no more slots for it.
          if (!recorded) current.delete(job.id);
        })
        .catch((error: unknown) =>
          deps.logger.error(
            { id: job.id, err: (error as Error).message },
            `${deps.what} run could not be recorded`,
          ),
        )
        .finally(() => {
          running--;
          count(runningBy.tenants, job.tenant, -1);
          count(runningBy.groups, job.group, -1);
          pump();
        });
    }
  }

  /**
   * The slot a run starting at `t` stands for: its own, unless it starts half a period or more
   * late (a busy queue, a stalled process, a lease taken over late). Then it stands for the slot
   * nearest `t`, and the entry's next run moves a period past that one, so two runs never come
   * moments apart and every run is within half a period of its slot.
   */
  function slotStartingAt(job: Job, t: number): number {
    if (t - job.slot < job.periodMs / 2) return job.slot;
    const slot = nearestSlot(job.id, job.periodMs, t);
    deps.onSkipped?.();
    const upcoming = current.get(job.id);
    if (upcoming && upcoming.slot <= slot) {
      const dueAt = nextSlot(job.id, job.periodMs, slot);
      const next = { ...turnOf(job), id: job.id, periodMs: job.periodMs, dueAt, slot: dueAt };
      current.set(job.id, next);
      heap.push(next);
      arm();
    }
    return slot;
  }

  /** When an entry runs first: now, its next slot, or a missed slot since its last run. */
  function firstSlot(entry: ScheduleEntry, soon: boolean, t: number): Slot {
    const { id, periodMs } = entry;
    const turn = turnOf(entry);
    if (soon) {
      // At once, unless the slot it would stand for was already run (resumed within a period).
      const slot = nearestSlot(id, periodMs, t);
      if (!entry.lastSlot || slot > entry.lastSlot)
        return { ...turn, id, periodMs, dueAt: t, slot };
    }
    const next = nextSlot(id, periodMs, entry.lastSlot || t);
    if (next > t) return { ...turn, id, periodMs, dueAt: next, slot: next };
    // Missed (its worker died or handed it over): the latest slot runs now, older ones are lost
    // (half a period or more late, the run stands for the next slot: see slotStartingAt).
    const latest = slotAtOrBefore(id, periodMs, t);
    if (latest > next) deps.onSkipped?.();
    return { ...turn, id, periodMs, dueAt: latest, slot: latest };
  }

  function schedule(entry: ScheduleEntry, options: { soon?: boolean } = {}): void {
    const t = now();
    const slot = firstSlot(entry, options.soon === true, t);
    const { dueAt } = slot;
    current.set(entry.id, slot);
    heap.push(slot);
    if (!stopped) {
      const top = heap.peek();
      if (top === slot || dueAt <= t) arm();
    }
  }

  /** Adds entries created or resumed elsewhere, drops paused or deleted ones, re-times changed ones. */
  async function sync(): Promise<number> {
    const active = await deps.listActive();
    const ids = new Set<string>();
    for (const entry of active) {
      ids.add(entry.id);
      // After a restart every entry keeps its own slot: no burst, no double check.
      const known = current.get(entry.id);
      const turn = turnOf(entry);
      if (
        known?.periodMs !== entry.periodMs ||
        known.tenant !== turn.tenant ||
        known.group !== turn.group
      )
        schedule(entry);
    }
    for (const id of current.keys()) if (!ids.has(id)) current.delete(id);
    return active.length;
  }
  let syncTimer: NodeJS.Timeout | undefined;

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      const entries = await sync();
      arm();
      syncTimer = setInterval(() => {
        sync().catch((error: unknown) =>
          deps.logger.warn({ err: (error as Error).message }, `${deps.what} schedule sync failed`),
        );
      }, deps.syncIntervalMs ?? 60_000);
      syncTimer.unref();
      deps.logger.info({ entries }, `${deps.what} scheduler started`);
    },
    schedule,
    unschedule(id) {
      current.delete(id);
    },
    async stop() {
      stopped = true;
      clearInterval(syncTimer);
      if (timer) clearTimeout(timer);
      timer = undefined;
      queue.length = 0;
      queued.clear();
      await deps.runner.idle();
    },
    stats: () => ({ scheduled: current.size, queued: queue.length, running }),
  };
}
