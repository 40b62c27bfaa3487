import { randomBytes } from "node:crypto";
import { startShimProcess } from "./clickhouse-shim-process.js";
import { findPostgresBin, startThrowawayPostgres, type ThrowawayPostgres } from "./postgres.js";
import { startThrowawayRedis, type ThrowawayRedis } from "./redis.js";
import { runCli, type ServeProcess, startServeProcess } from "./run-cli.js";
import { makeTempDir } from "./temp-dir.js";

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
  /** Nodes first, then the stores in reverse order of start, then their files. */
  const cleanup = async () => {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    for (const store of started.reverse()) await store.stop().catch(() => undefined);
    dir.remove();
  };
  try {
    const postgres = await startThrowawayPostgres(binDir);
    started.push(postgres);
    const redis = await startThrowawayRedis();
    started.push(redis);
    const shim = await startShimProcess(`${dir.path}/clickhouse`);
    started.push(shim);
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
      stop: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
