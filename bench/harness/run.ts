import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// How a bench runs: progress on stderr, settings from the environment, a temporary data dir
// and the steps that undo what it started, and its result as the last stdout line.

/** Progress and notes go to stderr; stdout holds the tables and the JSON result line. */
export const log = (text: string) => process.stderr.write(`${text}\n`);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A numeric setting from the environment (BENCH_…), or its default. */
export const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** The result line: one JSON object, the last line a bench prints. */
export const printResult = (result: unknown) => console.log(JSON.stringify(result));

/** Steps run in reverse order at the end, each failure logged and the rest still run. */
export type Cleanups = (() => Promise<unknown> | unknown)[];

/**
 * Runs `body` with a fresh temporary directory (`vigil-bench-<name>-…`) and a cleanup list; the
 * list runs in reverse, and the directory is removed, however the body ends.
 */
export async function withTempDir<T>(
  name: string,
  body: (dir: string, cleanups: Cleanups) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `vigil-bench-${name}-`));
  const cleanups: Cleanups = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    return await body(dir, cleanups);
  } finally {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        log(`cleanup: ${(error as Error).message}`);
      }
    }
  }
}
