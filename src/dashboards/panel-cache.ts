import type { TqlResult } from "../contracts/tql.js";

export interface PanelCacheOptions {
  /** Results kept, in bytes of JSON (keys included), at most; the least recently used go first. */
  maxBytes: number;
  /** Milliseconds on a monotonic clock; `performance.now` unless a test sets it. */
  now?: () => number;
}

interface Entry {
  result: TqlResult;
  bytes: number;
  expiresAt: number;
}

/** What the cache has done since it started: engine runs, answers from it, and what it holds. */
export interface PanelCacheStats {
  /** Queries it ran (one per distinct key and expiry). */
  runs: number;
  /** Answers from a kept result. */
  hits: number;
  /** Answers that waited for the same query another request had started. */
  joined: number;
  entries: number;
  bytes: number;
}

/** The cache's answer: the result, and whether another request's query produced it. */
export interface PanelCacheAnswer {
  result: TqlResult;
  cached: boolean;
}

/**
 * Panel results by key (project, compiled SQL, bound values), each kept for its bucket's length,
 * so viewers of one dashboard share one engine query per bucket. Concurrent requests for a key
 * not yet kept share the one query in flight (single flight); a failure is not kept. Bounded by
 * the total size of the results, least recently used evicted first; a result larger than a
 * quarter of that is shared with the requests in flight but not kept.
 */
export class PanelCache {
  readonly #entries = new Map<string, Entry>();
  readonly #inFlight = new Map<string, Promise<TqlResult>>();
  readonly #now: () => number;
  #bytes = 0;
  #runs = 0;
  #hits = 0;
  #joined = 0;

  constructor(private readonly options: PanelCacheOptions) {
    this.#now = options.now ?? (() => performance.now());
  }

  /** The kept result of `key`, the one in flight, or `run`'s, kept for `ttlMs`. */
  async get(key: string, ttlMs: number, run: () => Promise<TqlResult>): Promise<PanelCacheAnswer> {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > this.#now()) {
      // Most recently used last: eviction takes the first.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      this.#hits++;
      return { result: entry.result, cached: true };
    }
    if (entry) this.#drop(key, entry);
    const pending = this.#inFlight.get(key);
    if (pending) {
      this.#joined++;
      return { result: await pending, cached: true };
    }
    this.#runs++;
    const started = run();
    this.#inFlight.set(key, started);
    try {
      const result = await started;
      this.#keep(key, result, ttlMs);
      return { result, cached: false };
    } finally {
      this.#inFlight.delete(key);
    }
  }

  stats(): PanelCacheStats {
    return {
      runs: this.#runs,
      hits: this.#hits,
      joined: this.#joined,
      entries: this.#entries.size,
      bytes: this.#bytes,
    };
  }

  #keep(key: string, result: TqlResult, ttlMs: number): void {
    const bytes = key.length * 2 + Buffer.byteLength(JSON.stringify(result));
    if (bytes > this.options.maxBytes / 4) return;
    const previous = this.#entries.get(key);
    if (previous) this.#drop(key, previous);
    this.#entries.set(key, { result, bytes, expiresAt: this.#now() + ttlMs });
    this.#bytes += bytes;
    for (const [oldKey, old] of this.#entries) {
      if (this.#bytes <= this.options.maxBytes) break;
      this.#drop(oldKey, old);
    }
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
