import type { Logger } from "pino";
import type { Clock } from "../lib/clock.js";
import type { Metrics } from "../lib/metrics.js";
import type { CheckTrigger, MonitorEngine } from "./engine.js";

/** What the scheduler is told about a monitor: its id and period. */
export interface ScheduleEntry {
  id: string;
  periodMs: number;
}

export interface SchedulerDeps {
  engine: Pick<MonitorEngine, "check" | "isRunning" | "idle">;
  /** Every active monitor: read at start, then every `syncIntervalMs` to pick up other nodes' edits. */
  listActive(): Promise<ScheduleEntry[]>;
  syncIntervalMs?: number;
  clock: Clock;
  /** Checks in flight at once; due checks beyond it wait in a FIFO queue. */
  concurrency: number;
  logger: Logger;
  metrics?: Metrics;
}

/** Keeps every active monitor on its period; the in-process seam a leased multi-node scheduler replaces. */
export interface MonitorScheduler {
  start(): Promise<void>;
  /** Adds or re-times a monitor; `soon` runs its first check now (new or resumed monitors). */
  schedule(entry: ScheduleEntry, options?: { soon?: boolean }): void;
  unschedule(monitorId: string): void;
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

/** The first slot of this monitor strictly after `t`: slots are `k·period + offset`. */
export function nextSlot(id: string, periodMs: number, t: number): number {
  const offset = offsetOf(id, periodMs);
  return (Math.floor((t - offset) / periodMs) + 1) * periodMs + offset;
}

interface Slot {
  id: string;
  periodMs: number;
  dueAt: number;
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

export function createMonitorScheduler(deps: SchedulerDeps): MonitorScheduler {
  const heap = new SlotHeap();
  const current = new Map<string, Slot>();
  const queue: { id: string; slot: number }[] = [];
  const queued = new Set<string>();
  let running = 0;
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
    timer = setTimeout(fire, Math.min(MAX_TIMER_MS, Math.max(0, top.dueAt - now())));
    timer.unref();
  }

  function fire(): void {
    timer = undefined;
    const t = now();
    for (let top = heap.peek(); top && top.dueAt <= t; top = heap.peek()) {
      heap.pop();
      if (current.get(top.id) !== top) continue;
      if (deps.engine.isRunning(top.id) || queued.has(top.id)) {
        // Never overlap a monitor's own previous run: this slot is given up.
        deps.metrics?.monitorChecksSkipped.inc();
        deps.logger.debug({ monitorId: top.id }, "check skipped: the previous run is still going");
      } else {
        queue.push({ id: top.id, slot: top.dueAt });
        queued.add(top.id);
      }
      // The next slot of the monitor's own grid at least half a period on (a first check run
      // at once rejoins its grid), unless we fell a whole period behind.
      let dueAt = nextSlot(top.id, top.periodMs, top.dueAt + top.periodMs / 2);
      if (dueAt <= t) {
        deps.metrics?.monitorChecksSkipped.inc();
        dueAt = nextSlot(top.id, top.periodMs, t);
      }
      const next = { id: top.id, periodMs: top.periodMs, dueAt };
      current.set(top.id, next);
      heap.push(next);
    }
    pump();
    arm();
  }

  function pump(): void {
    while (!stopped && running < deps.concurrency && queue.length > 0) {
      const job = queue.shift() as { id: string; slot: number };
      queued.delete(job.id);
      if (!current.has(job.id)) continue;
      running++;
      deps.metrics?.monitorScheduleLag.observe(Math.max(0, now() - job.slot) / 1000);
      const trigger: CheckTrigger = "scheduled";
      deps.engine
        .check(job.id, trigger)
        .then((recorded) => {
          // Deleted or paused meanwhile (perhaps on another node): no more slots for it.
          if (!recorded) current.delete(job.id);
        })
        .catch((error: unknown) =>
          deps.logger.error(
            { monitorId: job.id, err: (error as Error).message },
            "monitor check could not be recorded",
          ),
        )
        .finally(() => {
          running--;
          pump();
        });
    }
  }

  function schedule(entry: ScheduleEntry, options: { soon?: boolean } = {}): void {
    const t = now();
    const dueAt = options.soon ? t : nextSlot(entry.id, entry.periodMs, t);
    const slot = { id: entry.id, periodMs: entry.periodMs, dueAt };
    current.set(entry.id, slot);
    heap.push(slot);
    if (!stopped) {
      const top = heap.peek();
      if (top === slot || dueAt <= t) arm();
    }
  }

  /** Adds monitors created or resumed elsewhere, drops paused or deleted ones, re-times changed ones. */
  async function sync(): Promise<number> {
    const active = await deps.listActive();
    const ids = new Set<string>();
    for (const entry of active) {
      ids.add(entry.id);
      // After a restart every monitor keeps its own slot: no burst, no double check.
      if (current.get(entry.id)?.periodMs !== entry.periodMs) schedule(entry);
    }
    for (const id of current.keys()) if (!ids.has(id)) current.delete(id);
    return active.length;
  }
  let syncTimer: NodeJS.Timeout | undefined;

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      const monitors = await sync();
      arm();
      syncTimer = setInterval(() => {
        sync().catch((error: unknown) =>
          deps.logger.warn({ err: (error as Error).message }, "monitor schedule sync failed"),
        );
      }, deps.syncIntervalMs ?? 60_000);
      syncTimer.unref();
      deps.logger.info({ monitors }, "monitor scheduler started");
    },
    schedule,
    unschedule(monitorId) {
      current.delete(monitorId);
    },
    async stop() {
      stopped = true;
      clearInterval(syncTimer);
      if (timer) clearTimeout(timer);
      timer = undefined;
      queue.length = 0;
      queued.clear();
      await deps.engine.idle();
    },
    stats: () => ({ scheduled: current.size, queued: queue.length, running }),
  };
}
