import type { Clock } from "../lib/clock.js";

/** How long a counted total serves the later pages of the same query. */
export const TOTAL_TTL_MS = 30_000;
/** Queries remembered at most; the oldest is forgotten first. */
const MAX_ENTRIES = 1000;

/**
 * List totals by query, for a short time. A grouped list (traces) counts its matches with the
 * grouping its page needs anyway, but the count doubles the page's cost; later pages of the same
 * query take the total counted by an earlier one instead. In process: each API node keeps its own.
 */
export class TotalCache {
  private readonly entries = new Map<string, { total: number; at: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = TOTAL_TTL_MS,
  ) {}

  /** The total counted for `key` less than the TTL ago. */
  get(key: string): number | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.clock.now().getTime() - entry.at < this.ttlMs) return entry.total;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, total: number): void {
    this.entries.delete(key);
    this.entries.set(key, { total, at: this.clock.now().getTime() });
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}

/** What makes two list requests count the same rows: the project and every parameter but the page's. */
export function totalKey(list: string, projectId: string, query: Record<string, unknown>): string {
  const {
    page: _page,
    limit: _limit,
    count: _count,
    sort_by: _by,
    sort_order: _order,
    ...rest
  } = query;
  const filters = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([list, projectId, filters]);
}
