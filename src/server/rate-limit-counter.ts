/** One fixed window of a counter after a hit: hits so far in it, and ms until it resets. */
export interface CounterWindow {
  current: number;
  ttl: number;
}

/**
 * Where rate-limit hits are counted: in this process, or in a store every API node shares
 * (Redis), so one limit holds across the nodes. Every limit (the per-key /v1 and OTLP budgets,
 * sign-in, the dashboard's reads, webhook writes) counts through one of these.
 */
export interface RateLimitCounter {
  /**
   * Counts one hit in `key`'s fixed window of `windowMs` (the window starts at its first hit).
   * Never rejects and never waits long: a shared store that fails is replaced by a local count.
   */
  increment(key: string, windowMs: number): Promise<CounterWindow>;
  /** Takes one hit back from `key`'s current window (a refund); nothing when it has none. */
  decrement(key: string): Promise<void>;
  /** `key`'s current window without counting a hit, or undefined when it has none. */
  peek(key: string): Promise<CounterWindow | undefined>;
  /** Checks that the shared store answers (for /readyz); absent when counting in memory. */
  ping?(): Promise<void>;
}

interface Window {
  count: number;
  startedAt: number;
  windowMs: number;
}

/** Counters kept at most; beyond, the oldest window is forgotten (as @fastify/rate-limit's LRU does). */
const MAX_KEYS = 20_000;

/** Fixed windows in this process's memory: exact for one node, per node with several. */
export class MemoryRateLimitCounter implements RateLimitCounter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The synchronous count behind increment (the Redis counter falls back to it in-line). */
  count(key: string, windowMs: number): CounterWindow {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.startedAt + window.windowMs <= now) {
      window = { count: 0, startedAt: now, windowMs };
      // Re-inserted so Map order is oldest-window first, the one evicted below.
      this.windows.delete(key);
      this.windows.set(key, window);
      if (this.windows.size > MAX_KEYS) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
    }
    window.count += 1;
    return { current: window.count, ttl: window.startedAt + window.windowMs - now };
  }

  async increment(key: string, windowMs: number): Promise<CounterWindow> {
    return this.count(key, windowMs);
  }

  /** The synchronous refund behind decrement. */
  uncount(key: string): void {
    const window = this.current(key);
    if (window && window.count > 0) window.count -= 1;
  }

  async decrement(key: string): Promise<void> {
    this.uncount(key);
  }

  /** The synchronous read behind peek. */
  read(key: string): CounterWindow | undefined {
    const window = this.current(key);
    return (
      window && { current: window.count, ttl: window.startedAt + window.windowMs - this.now() }
    );
  }

  async peek(key: string): Promise<CounterWindow | undefined> {
    return this.read(key);
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    return window && window.startedAt + window.windowMs > this.now() ? window : undefined;
  }
}
