import { buildChildSources } from "./helpers/child-build.js";
import { findPostgresBin, SHARED_POSTGRES_VAR, startPostgresServer } from "./helpers/postgres.js";

const BUILT = "CHILD_SOURCES_BUILT";

/**
 * Runs in vitest's main process before any file, once per run (each project inherits it):
 * compiles the sources the tests' child processes run, and starts the one PostgreSQL server in
 * which each test makes a database of its own (test/helpers/postgres.ts). The files' processes
 * inherit the environment set here.
 */
export async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[BUILT] === "done") return undefined;
  process.env[BUILT] = "done";
  await buildChildSources();
  const binDir = findPostgresBin();
  if (!binDir) return undefined;
  const server = await startPostgresServer(binDir);
  process.env[SHARED_POSTGRES_VAR] = server.url;
  return async () => {
    delete process.env[SHARED_POSTGRES_VAR];
    await server.stop();
  };
}
