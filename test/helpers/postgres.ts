import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./free-port.js";
import { makeTempDir } from "./temp-dir.js";

/** Directory holding initdb/postgres: on PATH, or Debian's /usr/lib/postgresql/<version>/bin. */
export function findPostgresBin(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "postgres"))) return dir;
  }
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, "bin")).find((dir) => existsSync(join(dir, "initdb")));
}

export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
}

/** Where the suite's global setup (test/global-setup.ts) tells the test files its server is. */
export const SHARED_POSTGRES_VAR = "TEST_POSTGRES_URL";

/**
 * A PostgreSQL database of the test's own, dropped by `stop`: a new database in the suite's
 * shared server when the global setup started one (an initdb and a server start per test file
 * cost 1–2 s of CPU each), or else a private server of its own.
 */
export async function startThrowawayPostgres(binDir: string): Promise<ThrowawayPostgres> {
  const shared = process.env[SHARED_POSTGRES_VAR];
  return shared ? createThrowawayDatabase(shared) : startPostgresServer(binDir);
}

/** Runs one statement on the server's `postgres` database. */
async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function createThrowawayDatabase(serverUrl: string): Promise<ThrowawayPostgres> {
  const name = `test_${randomBytes(8).toString("hex")}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE: the test's own pools may still hold connections when it stops.
    stop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * Starts a private PostgreSQL on 127.0.0.1 and a free port, in a temp directory, from the
 * initdb/postgres binaries. As root it runs them as the `postgres` user (initdb refuses root).
 */
export async function startPostgresServer(binDir: string): Promise<ThrowawayPostgres> {
  const dir = makeTempDir("vigil-pg-");
  // Run the binaries as `postgres` when we are root, without a wrapper that would swallow signals.
  let owner: { uid: number; gid: number } | Record<string, never> = {};
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir.path, uid, gid);
    owner = { uid, gid };
  }
  const dataDir = join(dir.path, "data");
  execFileSync(
    join(binDir, "initdb"),
    ["-D", dataDir, "-U", "vigil", "--auth=trust", "-E", "UTF8", "--no-sync"],
    {
      stdio: "pipe",
      cwd: dir.path,
      ...owner,
    },
  );

  const port = await freePort();
  const args = [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-k",
    dir.path,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "synchronous_commit=off",
    "-c",
    "full_page_writes=off",
    // The suite's files share one server, each with its pools (a several-node test has four).
    "-c",
    "max_connections=400",
  ];
  const server: ChildProcess = spawn(join(binDir, "postgres"), args, {
    stdio: ["ignore", "ignore", "pipe"],
    cwd: dir.path,
    ...owner,
  });
  let stderr = "";
  server.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = `postgres://vigil@127.0.0.1:${port}/postgres`;

  const deadline = Date.now() + 20_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    // While the server starts, a refused or reset socket is also emitted as an event.
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await client.end().catch(() => undefined);
      if (server.exitCode !== null || Date.now() > deadline) {
        server.kill("SIGKILL");
        dir.remove();
        throw new Error(`PostgreSQL did not start: ${stderr.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  // A run that ends without its teardown (an unhandled error, a signal vitest handles) must not
  // leave the server behind: immediate shutdown as the owning process exits.
  const orphaned = () => server.kill("SIGQUIT");
  process.once("exit", orphaned);
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off("exit", orphaned);
        const done = () => {
          dir.remove();
          resolve();
        };
        if (server.exitCode !== null) return done();
        server.once("exit", done);
        server.kill("SIGINT"); // fast shutdown
      }),
  };
}
