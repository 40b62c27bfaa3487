/**
 * A shared allowance of bytes held in memory at once (a weighted semaphore that never waits).
 * Each user takes bytes through a lease and gives them all back with one release().
 */
export class ByteBudget {
  #used = 0;

  /** `onChange` hears the bytes in use after every take and release (for a gauge). */
  constructor(
    readonly capacity: number,
    private readonly onChange: (used: number) => void = () => {},
  ) {}

  /** Bytes currently held by open leases. */
  get used(): number {
    return this.#used;
  }

  lease(): BudgetLease {
    let held = 0;
    let open = true;
    return {
      take: (bytes) => {
        if (!open || this.#used + bytes > this.capacity) return false;
        this.#used += bytes;
        held += bytes;
        this.onChange(this.#used);
        return true;
      },
      release: () => {
        if (!open) return;
        open = false;
        this.#used -= held;
        held = 0;
        this.onChange(this.#used);
      },
    };
  }
}

/** Bytes taken from a ByteBudget on behalf of one unit of work (one request). */
export interface BudgetLease {
  /** Takes more bytes if they fit; false (nothing taken) if not, or once released. */
  take(bytes: number): boolean;
  /** Gives back everything taken; later calls do nothing and later takes fail. */
  release(): void;
}
