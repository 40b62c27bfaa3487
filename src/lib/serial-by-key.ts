/**
 * Runs work one at a time per key, each after the one before it has settled (a failure does
 * not stop the next): a monitor's checks, a rule's evaluations. Knows which keys have work
 * running or queued, and waits for all of it.
 */
export class SerialByKey<T> {
  readonly #running = new Map<string, Promise<T>>();

  /** Runs `work` for `key` after any work of that key still running. */
  run(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#running.get(key);
    const run = (previous ?? Promise.resolve()).catch(() => undefined).then(work);
    this.#running.set(key, run);
    const forget = () => {
      if (this.#running.get(key) === run) this.#running.delete(key);
    };
    run.then(forget, forget);
    return run;
  }

  /** Whether work of `key` is running or queued. */
  isRunning(key: string): boolean {
    return this.#running.has(key);
  }

  /** Resolves once no work of any key is left, including work queued meanwhile. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running.values()]);
  }
}
