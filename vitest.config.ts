import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The browser journeys (Debian's Chromium): their own project, `npm run test:browser`. */
const BROWSER = "test/**/*.e2e.int.test.ts";

/**
 * Files that wait on real time or real processes for minutes (monitor periods, a lease, a retry
 * 60 s on, CLI children). On a fresh clone vitest has no durations yet and would start them in
 * name order; started first, they overlap the rest instead of trailing it.
 */
const LONG_RUNNING = [
  "test/multi-node.int.test.ts",
  "test/cli.int.test.ts",
  "test/webhooks-restart.int.test.ts",
  "test/cli-first-steps.int.test.ts",
  "test/local-dev.int.test.ts",
  "test/tql-fuzz-engine.int.test.ts",
];

/**
 * Files that bound a latency (an acknowledgment within a second, a read connection kept free,
 * another organization answered at once, a lease moved within its time): beside the other
 * files' servers on a 2-core machine they measure the neighbours, so they run after them, one at
 * a time and each in a fresh process (`npm test` runs this project with --isolate
 * --no-file-parallelism), as they were written to.
 */
const TIMED = [
  "test/engine-isolation.int.test.ts",
  "test/telemetry-executor-clickhouse.int.test.ts",
  "test/fair-share-tql.int.test.ts",
  "test/work-leases.int.test.ts",
];

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG_RUNNING.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? LONG_RUNNING.length : i;
    };
    // Stable: within the rest, vitest's own order (slowest first once it has durations).
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

/**
 * Most files wait on timers, sockets and child processes more than they compute, so one worker
 * more than the cores keeps both cores busy (`npx vitest run --no-file-parallelism` runs one at a
 * time).
 */
const workers = availableParallelism() + 1;

export default defineConfig({
  test: {
    // Each worker is a process of its own (chDB holds one data directory per process), and keeps
    // its loaded modules from one file to the next: importing the server's module graph in a
    // fresh process for every file was half the fast project's time (11.6 min isolated, 6.2 min
    // shared, on a quiet machine; ADR 0027). So a file closes what it opens (its services, and so
    // its chDB session) and restores what it changes. Set here, not in a project: vitest reads
    // the pool's options from the root only.
    pool: "forks",
    poolOptions: { forks: { isolate: false } },
    maxWorkers: workers,
    // As many as at most: with fewer, tinypool retires idle workers mid-run and their teardown
    // races their exit ("Terminating worker thread", an unhandled rejection failing the run).
    minWorkers: workers,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Compiles src/ once for the processes tests start, and starts the one PostgreSQL server.
    globalSetup: ["test/global-setup.ts"],
    sequence: { sequencer: LongFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          sequence: { sequencer: LongFirst, groupOrder: 0 },
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [BROWSER, ...TIMED, "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "timed",
          include: TIMED,
          sequence: { sequencer: LongFirst, groupOrder: 1 },
        },
      },
      // Last in `npm run test:all`, one file at a time, each in a fresh process (its script passes
      // --isolate --no-file-parallelism): each drives a Chromium and a server, and two or three
      // side by side on 2 cores pushed their waits past their time limits.
      {
        extends: true,
        test: {
          name: "browser",
          include: [BROWSER],
          sequence: { sequencer: LongFirst, groupOrder: 2 },
        },
      },
    ],
  },
});
