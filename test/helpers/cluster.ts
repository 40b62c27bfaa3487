import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { findPostgresBin, startThrowawayPostgres, type ThrowawayPostgres } from "./postgres.js";
import { startThrowawayRedis, type ThrowawayRedis } from "./redis.js";
import { runCli, type ServeProcess, startServeProcess } from "./run-cli.js";
import { makeTempDir } from "./temp-dir.js";

const SHIM_MAIN = fileURLToPath(new URL("./clickhouse-shim-main.ts", import.meta.url));

/** The shared stores of a several-node install: PostgreSQL, Redis and a ClickHouse endpoint. */
export interface ClusterStores {
  postgres: ThrowawayPostgres;
  redis: ThrowawayRedis;
  clickhouseUrl: string;
  /** The env every node gets: the shared stores, the same secret key, its own data dir. */
  env(node: string, extra?: Record<string, string>): Record<string, string>;
  /** Starts `vigil serve --role <role>` as a process of its own. */
  startNode(
    name: string,
    role: "api" | "worker" | "all",
    extra?: Record<string, string>,
  ): Promise<ServeProcess>;
  /** `vigil init` against the shared stores: the owner and a full API key. */
  init(email: string, password: string): Promise<{ projectId: string; apiKey: string }>;
  stop(): Promise<void>;
}

/** Starts the test ClickHouse endpoint (chDB behind the HTTP shim) as a process of its own. */
export async function startShimProcess(
  dataDir: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", SHIM_MAIN, dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`ClickHouse shim exited (${code}): ${stderr}`)));
  });
  return { url, child };
}

export const postgresAvailable = () => findPostgresBin() !== undefined;

/**
 * PostgreSQL and redis-server from Debian's binaries and the ClickHouse shim, each a process of
 * its own on loopback, and the env that points Vigil nodes at them.
 */
export async function startClusterStores(): Promise<ClusterStores> {
  const binDir = findPostgresBin();
  if (!binDir) throw new Error("PostgreSQL binaries not found: apt-get install postgresql");
  const dir = makeTempDir("vigil-cluster-");
  const started: { stop(): Promise<unknown> }[] = [];
  const nodes: ServeProcess[] = [];
  try {
    const postgres = await startThrowawayPostgres(binDir);
    started.push(postgres);
    const redis = await startThrowawayRedis();
    started.push(redis);
    const shim = await startShimProcess(`${dir.path}/clickhouse`);
    started.push({
      stop: () =>
        new Promise((resolve) => {
          if (shim.child.exitCode !== null) return resolve(undefined);
          shim.child.once("exit", resolve);
          shim.child.kill("SIGTERM");
        }),
    });
    const secretKey = randomBytes(32).toString("base64");
    const env = (node: string, extra: Record<string, string> = {}) => ({
      VIGIL_DATA_DIR: `${dir.path}/${node}`,
      VIGIL_META_URL: postgres.url,
      VIGIL_REDIS_URL: redis.url,
      VIGIL_TELEMETRY_URL: shim.url,
      VIGIL_SECRET_KEY: secretKey,
      VIGIL_LOG_LEVEL: "info",
      ...extra,
    });
    return {
      postgres,
      redis,
      clickhouseUrl: shim.url,
      env,
      async startNode(name, role, extra) {
        const node = await startServeProcess(["--role", role], env(name, extra));
        nodes.push(node);
        return node;
      },
      async init(email, password) {
        const result = await runCli(
          ["init", "--email", email, "--password", password, "--json"],
          env("init"),
        );
        if (result.code !== 0) throw new Error(`vigil init failed: ${result.stderr}`);
        return JSON.parse(result.stdout) as { projectId: string; apiKey: string };
      },
      async stop() {
        await Promise.allSettled(nodes.map((node) => node.stop()));
        for (const store of started.reverse()) await store.stop().catch(() => undefined);
        dir.remove();
      },
    };
  } catch (error) {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    for (const store of started.reverse()) await store.stop().catch(() => undefined);
    dir.remove();
    throw error;
  }
}
