import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A fresh directory under the OS temp dir and a function that removes it. The removal retries:
 * a store closed a moment before may still be finishing a file in it (SQLite's WAL), and a
 * recursive removal racing it fails with ENOTEMPTY.
 */
export function makeTempDir(prefix = "vigil-test-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    remove: () => rmSync(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }),
  };
}
