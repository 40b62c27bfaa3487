import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the worker folds the write-ahead log back into the database file. */
const CHECKPOINT_INTERVAL_MS = 1_000;

/**
 * The worker's code, CommonJS: its own connection to the same file, a PASSIVE checkpoint on a
 * timer (it never waits for or blocks writers), closed when the parent says so.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const SQLite = require(workerData.driver);
const database = new SQLite(workerData.path);
database.pragma("busy_timeout = 5000");
const timer = setInterval(() => {
  try { database.pragma("wal_checkpoint(PASSIVE)"); } catch {}
}, workerData.intervalMs);
parentPort.once("message", () => {
  clearInterval(timer);
  database.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stops the worker after its checkpoint in progress, if any. */
  stop(): Promise<void>;
}

/**
 * Runs the SQLite metadata store's WAL checkpoints on a worker thread. SQLite's automatic
 * checkpoint runs inside whichever commit crosses its threshold, on the event loop, and waits
 * for the disk: a webhook burst's commits stalled behind it for tens of milliseconds, and for
 * over a second under load (issue 19). The event loop's connection keeps automatic checkpoints
 * as a backstop (past BACKSTOP_CHECKPOINT_PAGES, in database.ts), in case the worker stops.
 */
export function startCheckpointer(path: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, path, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.unref();
  // A worker that fails leaves the backstop to do its work; nothing to report to a request.
  worker.on("error", () => undefined);
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    stop() {
      // Referenced again while it closes: a process waiting only for this (a CLI command closing
      // its store) would otherwise end with its top-level await unsettled.
      worker.ref();
      worker.postMessage("stop");
      return exited;
    },
  };
}
