import { UnavailableError } from "../lib/domain-errors.js";
import { nextInTurn } from "../lib/fair-turn.js";
import {
  type AdmissionOptions,
  type AdmissionRefusal,
  type Admittance,
  BUSY_RETRY_AFTER_SECONDS,
} from "./admission-options.js";

/** How long admitted work has been taking: each new one weighs this much in the moving average. */
const READ_MS_WEIGHT = 0.1;

/** Work that names no tenant (or group) shares this one, and no tenant bound applies to it. */
const NONE = "";

/** Admitted work waiting for a slot. */
interface Waiter {
  tenant: string;
  group: string;
  bounded: boolean;
  since: number;
  /** Its own deadline's timer, if it has one. */
  timer: NodeJS.Timeout | undefined;
  start(): void;
  refuse(error: Error): void;
}

/**
 * Bounds tenants' work for the telemetry engine and shares the engine fairly between them: at
 * most `maxPending` admitted at once, of which `slots` run on the engine and the rest wait here;
 * beyond a bound work is refused at once instead of queueing. One mechanism for every engine
 * query a tenant can cause (ADR 0018, ADR 0021): the read API's statements and trace lookups,
 * and TQL's ad-hoc queries (the TQL screen and API, alert evaluations and previews), each over
 * the engine sessions it runs on.
 *
 * Offered more reads than the engine answers, an unbounded queue answers every one of them, each
 * later than the last, and holds their connections and memory meanwhile (the distinct run of
 * `bench:api` saw 28 s after 20 s of it). The count bound alone still let the reads it admitted
 * wait seconds when each took long (ingestion sharing the cores): how long a queue of a given
 * length takes depends on the reads in it, so the wait is bounded too, as ClickHouse bounds
 * waiting for a query slot with `queue_max_wait_ms`. A tenant's next `slots` reads are never
 * refused for waiting: a burst that fills the slots twice over, such as one dashboard's panels,
 * each slow on a large window, is answered, only later. Work with a deadline of its own (a TQL
 * query, whose time limit counts its wait) is refused when the deadline passes before it starts.
 *
 * Tenants (projects) share it fairly, in groups (organizations): a freed slot goes to the oldest
 * waiting work of the group with the fewest running, and within it of the tenant with the fewest
 * running; a tenant and a group may hold a share of the pending bound and of the slots at most,
 * so one flooding the engine with slow work never keeps another out. Alone, a tenant gets every
 * slot its bounds allow, in order.
 *
 * Holding the waiting ones here rather than in the engine's session queues keeps those short, so
 * work that bypasses this bound (a trace lookup batch, ingestion's reads) is not stuck behind a
 * long queue.
 */
export class EngineAdmission {
  /** Work running, in all, by tenant and by group. */
  private runningCount = 0;
  private readonly running = new Map<string, number>();
  private readonly runningGroups = new Map<string, number>();
  /** Work admitted (running or waiting) that the pending bounds count: all but `bounded`. */
  private readonly pendingBy = new Map<string, number>();
  private readonly pendingGroups = new Map<string, number>();
  /** Admitted work waiting for a slot, oldest first, and how much by tenant. */
  private waiting: Waiter[] = [];
  private readonly waitingBy = new Map<string, number>();
  /** Refuses waiting reads whose wait runs out while no slot comes free. */
  private expiry: NodeJS.Timeout | undefined;
  /** The waiting read `expiry` is set for. */
  private expiryFor: Waiter | undefined;
  private readonly now: () => number;
  /** How long work has been taking, ms: a moving average; unknown until some has run. */
  private readMs: number | undefined;
  private readonly maxPendingPerTenant: number;
  private readonly maxRunningPerGroup: number;

  constructor(private readonly options: AdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
    this.maxPendingPerTenant =
      options.maxPendingPerTenant ?? Math.max(1, Math.floor(options.maxPending / 2));
    this.maxRunningPerGroup = options.maxRunningPerGroup ?? Number.POSITIVE_INFINITY;
  }

  /** Work running and waiting now, for metrics and tests. */
  stats(): { running: number; waiting: number } {
    return { running: this.runningCount, waiting: this.waiting.length };
  }

  /**
   * Runs `work` once a slot is free if there is room and its wait looks short enough, else
   * refuses it at once. A tenant given as a plain string is the read API's form.
   */
  admit<T>(work: () => Promise<T>, who: Admittance | string = {}): Promise<T> {
    const {
      tenant = NONE,
      group = NONE,
      deadline,
      bounded = false,
    } = typeof who === "string" ? { tenant: who } : who;
    this.refuseExpired();
    if (!bounded) {
      const refused = this.overBounds(tenant, group);
      if (refused) return Promise.reject(refused);
    }
    if (deadline !== undefined && deadline <= this.now())
      return Promise.reject(this.refusal("deadline", "its time limit ran out before it started"));
    if (!bounded) this.countPending(tenant, group, 1);
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.runningCount++;
        add(this.running, tenant, 1);
        add(this.runningGroups, group, 1);
        const started = this.now();
        let run: Promise<T>;
        try {
          run = work();
        } catch (error) {
          run = Promise.reject(error);
        }
        // The slot is free, and the next work started, before its caller hears the outcome.
        run.then(
          (value) => {
            this.release(tenant, group, bounded, started);
            resolve(value);
          },
          (error: unknown) => {
            this.release(tenant, group, bounded, started);
            reject(error);
          },
        );
      };
      if (this.runningCount < this.options.slots && this.mayRun(group)) {
        start();
        return;
      }
      const waiter: Waiter = {
        tenant,
        group,
        bounded,
        since: this.now(),
        timer: undefined,
        start,
        refuse: reject,
      };
      this.waiting.push(waiter);
      add(this.waitingBy, tenant, 1);
      if (deadline !== undefined) {
        waiter.timer = setTimeout(
          () => {
            if (!this.remove(new Set([waiter]))) return;
            waiter.refuse(this.refusal("deadline", "its time limit ran out while it waited"));
            this.scheduleExpiry();
          },
          Math.max(0, Math.ceil(deadline - this.now())),
        );
        waiter.timer.unref();
      }
      this.scheduleExpiry();
    });
  }

  /** The refusal for new work of `tenant` in `group` over a pending bound, if it is. */
  private overBounds(tenant: string, group: string): Error | undefined {
    const pending = this.runningCount + this.waiting.length;
    if (pending >= this.options.maxPending)
      return this.refusal("pending", `${readsAre(pending)} waiting for it`);
    const own = count(this.pendingBy, tenant);
    if (tenant !== NONE && own >= this.maxPendingPerTenant)
      return this.refusal("tenant", `${readsAre(own, " of this project")} waiting for it`);
    const { maxPendingPerGroup } = this.options;
    const ofGroup = count(this.pendingGroups, group);
    if (group !== NONE && maxPendingPerGroup !== undefined && ofGroup >= maxPendingPerGroup)
      return this.refusal(
        "group",
        `${readsAre(ofGroup, " of this organization")} waiting for it (at most ${maxPendingPerGroup})`,
      );
    const { maxWaitMs, slots } = this.options;
    // Only a read beyond its tenant's next `slots` can be refused for its wait.
    if (maxWaitMs !== undefined && count(this.waitingBy, tenant) >= slots) {
      const expectedWaitMs = this.expectedWaitMs(tenant);
      if (expectedWaitMs > maxWaitMs)
        return this.refusal(
          "wait",
          `the reads before this one take about ${Math.round(expectedWaitMs)} ms, over ${maxWaitMs} ms`,
        );
    }
    return undefined;
  }

  /** Whether work of `group` may take one more slot under its running bound. */
  private mayRun(group: string): boolean {
    return group === NONE || count(this.runningGroups, group) < this.maxRunningPerGroup;
  }

  /** Adds `delta` to the work the pending bounds count for this tenant and group. */
  private countPending(tenant: string, group: string, delta: number): void {
    add(this.pendingBy, tenant, delta);
    add(this.pendingGroups, group, delta);
  }

  /**
   * How long a read of `tenant` admitted now would wait for a slot: until the reads to run
   * before it (its tenant's waiting ones, and as many of each other tenant's as turns go round)
   * have started, `slots` at a time, each taking as long as reads have been taking. 0 while a
   * slot is free, or before any read has run.
   */
  private expectedWaitMs(tenant: string): number {
    const { slots } = this.options;
    if (this.runningCount < slots || this.readMs === undefined) return 0;
    const turns = count(this.waitingBy, tenant) + 1;
    let before = turns;
    for (const [other, waiting] of this.waitingBy)
      if (other !== tenant) before += Math.min(waiting, turns);
    return (before * this.readMs) / slots;
  }

  private release(tenant: string, group: string, bounded: boolean, started: number): void {
    const took = this.now() - started;
    this.readMs =
      this.readMs === undefined ? took : this.readMs + (took - this.readMs) * READ_MS_WEIGHT;
    this.runningCount--;
    add(this.running, tenant, -1);
    add(this.runningGroups, group, -1);
    if (!bounded) this.countPending(tenant, group, -1);
    this.refuseExpired();
    // A slot freed by one group may let another's waiting work run: start all that can.
    for (let next = this.next(); next >= 0; next = this.next()) {
      const [work] = this.waiting.splice(next, 1) as [Waiter];
      add(this.waitingBy, work.tenant, -1);
      clearTimeout(work.timer);
      work.start();
    }
    this.scheduleExpiry();
  }

  /** Where the work to run next waits (see nextInTurn); -1 for none, or no slot free. */
  private next(): number {
    if (this.runningCount >= this.options.slots) return -1;
    return nextInTurn(this.waiting, { tenants: this.running, groups: this.runningGroups }, (work) =>
      this.mayRun(work.group),
    );
  }

  /**
   * The waiting reads the wait bound applies to, oldest first: all but each tenant's next
   * `slots` (its oldest).
   */
  private *bounded(): Generator<Waiter> {
    // None unless some tenant has more than `slots` waiting: spares the common case the map.
    if (this.options.maxWaitMs === undefined || this.waiting.length <= this.options.slots) return;
    const seen = new Map<string, number>();
    for (const waiter of this.waiting) {
      if (count(seen, waiter.tenant) >= this.options.slots) yield waiter;
      add(seen, waiter.tenant, 1);
    }
  }

  /** Takes these from the waiting ones, uncounted; false if none of them was waiting. */
  private remove(gone: ReadonlySet<Waiter>): boolean {
    let removed = false;
    this.waiting = this.waiting.filter((waiter) => {
      if (!gone.has(waiter)) return true;
      removed = true;
      add(this.waitingBy, waiter.tenant, -1);
      if (!waiter.bounded) this.countPending(waiter.tenant, waiter.group, -1);
      clearTimeout(waiter.timer);
      return false;
    });
    return removed;
  }

  /** Refuses the waiting reads past maxWaitMs that the wait bound applies to. */
  private refuseExpired(): void {
    const { maxWaitMs } = this.options;
    if (maxWaitMs === undefined) return;
    const now = this.now();
    const expired = new Set<Waiter>();
    for (const waiter of this.bounded()) {
      // The oldest come first: once one is in time, the rest are too.
      if (now - waiter.since < maxWaitMs) break;
      expired.add(waiter);
    }
    if (expired.size === 0) return;
    this.remove(expired);
    for (const waiter of expired)
      waiter.refuse(this.refusal("wait", `this read waited ${maxWaitMs} ms for it`));
    // The timer may have been for one of them.
    this.scheduleExpiry();
  }
  /** One timer, for the deadline of the oldest read the wait bound applies to; none while none. */
  private scheduleExpiry(): void {
    const { maxWaitMs } = this.options;
    const oldest = this.bounded().next().value as Waiter | undefined;
    if (oldest === this.expiryFor) return;
    clearTimeout(this.expiry);
    this.expiry = undefined;
    this.expiryFor = oldest;
    if (maxWaitMs === undefined || !oldest) return;
    const left = oldest.since + maxWaitMs - this.now();
    this.expiry = setTimeout(
      () => {
        this.expiry = undefined;
        this.expiryFor = undefined;
        this.refuseExpired();
        this.scheduleExpiry();
      },
      Math.max(0, Math.ceil(left)),
    );
    this.expiry.unref();
  }

  private refusal(reason: AdmissionRefusal, detail: string): Error {
    this.options.onRefused?.(reason);
    return (
      this.options.refusalError?.(reason, detail, this.readMs) ??
      new UnavailableError(
        `The telemetry store is busy: ${detail}; retry in ${BUSY_RETRY_AFTER_SECONDS} s`,
        BUSY_RETRY_AFTER_SECONDS,
      )
    );
  }
}

const count = (counts: ReadonlyMap<string, number>, key: string): number => counts.get(key) ?? 0;

/** "1 read … is", "2 reads … are". */
const readsAre = (n: number, of = ""): string =>
  n === 1 ? `1 read${of} is` : `${n} reads${of} are`;

/** Adds `delta` to a count, forgetting a key whose count falls to 0. */
function add(counts: Map<string, number>, key: string, delta: number): void {
  const next = count(counts, key) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
