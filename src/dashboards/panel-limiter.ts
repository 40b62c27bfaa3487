import { RateLimitedError, UnavailableError } from "../lib/domain-errors.js";

export interface PanelLimiterOptions {
  /** Panel queries of one project on the engine at once (the project's TQL bound). */
  maxRunning: number;
  /** Panel queries of one project waiting here at once, at most; one more is a 429. */
  maxQueued: number;
  /** Milliseconds one may wait here; longer is a 503 (the query's own time limit starts after). */
  maxWaitMs: number;
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

interface ProjectLine {
  running: number;
  queue: Waiter[];
}

/**
 * Puts each project's panel queries in a line of its own before the TQL engine: at most
 * `maxRunning` of a project's on the engine at once (they are passed to TQL as waiting for their
 * turn, not refused at the project's bound), the rest waiting here in order up to `maxQueued`,
 * beyond which a project is told to come back (429, Retry-After). So a busy dashboard fills its
 * own line, never the engine's queue shared by every project.
 */
export class PanelLimiter {
  readonly #lines = new Map<string, ProjectLine>();
  /** How long a panel query has been taking lately (ms), for Retry-After. */
  #typicalMs = 1000;

  constructor(private readonly options: PanelLimiterOptions) {}

  /** Runs `work` for the project when its turn comes; refuses when the line is full. */
  run<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    const line = this.#lines.get(projectId) ?? { running: 0, queue: [] };
    this.#lines.set(projectId, line);
    if (line.running < this.options.maxRunning) return this.#start(projectId, line, work);
    if (line.queue.length >= this.options.maxQueued) {
      const waves = Math.ceil((line.queue.length + 1) / this.options.maxRunning);
      throw new RateLimitedError(
        `This project has ${line.queue.length} dashboard panel queries waiting (at most ${this.options.maxQueued}); retry shortly`,
        Math.min(60, Math.max(1, Math.ceil((waves * this.#typicalMs) / 1000))),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          this.#start(projectId, line, work).then(resolve, reject);
        },
        timer: setTimeout(() => {
          line.queue.splice(line.queue.indexOf(waiter), 1);
          this.#forgetIdle(projectId, line);
          reject(
            new UnavailableError(
              `This project's dashboard panel queries kept the engine busy for ${Math.round(this.options.maxWaitMs / 1000)} s while this one waited; retry shortly`,
              Math.max(1, Math.ceil(this.#typicalMs / 1000)),
            ),
          );
        }, this.options.maxWaitMs),
      };
      line.queue.push(waiter);
    });
  }

  /** Queries of the project running and waiting here, now. */
  load(projectId: string): { running: number; queued: number } {
    const line = this.#lines.get(projectId);
    return { running: line?.running ?? 0, queued: line?.queue.length ?? 0 };
  }

  async #start<T>(projectId: string, line: ProjectLine, work: () => Promise<T>): Promise<T> {
    line.running++;
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.#typicalMs = 0.8 * this.#typicalMs + 0.2 * (performance.now() - started);
      line.running--;
      const next = line.queue.shift();
      if (next) next.start();
      else this.#forgetIdle(projectId, line);
    }
  }

  #forgetIdle(projectId: string, line: ProjectLine): void {
    if (line.running === 0 && line.queue.length === 0) this.#lines.delete(projectId);
  }
}
