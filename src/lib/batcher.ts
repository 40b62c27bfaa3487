interface Waiting<K, V> {
  key: K;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs lookups in batches, one batch at a time: a key asked for while the engine is idle runs
 * at once, alone; keys asked for while a batch runs wait and go together in the next one. Under
 * load, one engine statement then answers many requests (chDB runs one statement at a time, so
 * statements are the scarce resource); when idle, nobody waits for a batch to fill.
 */
export class Batcher<K, V> {
  private queue: Waiting<K, V>[] = [];
  private running = false;

  constructor(
    /** Answers every key, in the keys' order. */
    private readonly run: (keys: readonly K[]) => Promise<V[]>,
    private readonly maxBatch: number,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const values = await this.run(batch.map((w) => w.key));
          for (const [i, w] of batch.entries()) w.resolve(values[i] as V);
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
