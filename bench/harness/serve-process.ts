/**
 * `vigil serve` as its own process for the benchmarks that drive it over loopback: the built
 * CLI, a data dir set up with `vigil init`, the server's URLs, and its CPU time from /proc.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "bin", "vigil.js");

/** This process's environment without VIGIL_ settings, quiet logs, no ingest rate limit to speak of. */
export function benchEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VIGIL_"))),
    VIGIL_LOG_LEVEL: "warn",
    VIGIL_INGEST_RATE_LIMIT_PER_MINUTE: "1000000",
    ...extra,
  };
}

/** Runs a `vigil` command with --json output and returns what it printed. */
export function vigilJson(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [CLI, ...args], { env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`vigil ${args[0]} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, string>;
}

/** `vigil init` of a data dir for the benchmarks: its project and full-access API key. */
export function initDataDir(dataDir: string, env: NodeJS.ProcessEnv) {
  const {
    apiKey = "",
    projectId = "",
    orgId = "",
  } = vigilJson(
    [
      "init",
      "--json",
      "--data-dir",
      dataDir,
      "--email",
      "bench@example.com",
      "--password",
      "bench password 1",
    ],
    env,
  );
  return { apiKey, projectId, orgId };
}

/** Posts one OTLP/HTTP protobuf trace export; resolves its status once the answer is read. */
export async function postTraces(url: string, apiKey: string, body: Uint8Array): Promise<number> {
  const response = await fetch(`${url}/v1/traces`, {
    method: "POST",
    headers: { "content-type": "application/x-protobuf", "x-api-key": apiKey },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

export async function startServer(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  nodeFlags: readonly string[] = [],
) {
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      CLI,
      "serve",
      "--port",
      "0",
      "--grpc-port",
      "0",
      "--json",
      "--data-dir",
      dataDir,
    ],
    { env },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const { url, grpcUrl } = await new Promise<{ url: string; grpcUrl: string }>(
    (resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0] ?? ""));
      });
      child.once("exit", (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    url,
    grpcUrl,
    pid: child.pid as number,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * CPU seconds a process has used so far, all its threads (the engine's included): /proc/<pid>/stat;
 * with `thread`, only that thread's (the main thread's id is the pid: the event loop).
 */
export function cpuSeconds(pid: number, thread?: number): number {
  const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const fields = readFileSync(path, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime, fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
