import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("./cli-entry.ts", import.meta.url));

/** Environment for a CLI child: the parent's, minus any VIGIL_* settings, plus the given ones. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("VIGIL_")),
  );
  return { ...base, ...env };
}

export function spawnCli(
  args: string[],
  env: Record<string, string> = {},
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], { env: childEnv(env) });
}

/** Runs `vigil args…` to completion and collects its output. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServeProcess {
  url: string;
  /** The service's own process id (its memory can be read from /proc/<pid>/status). */
  pid: number;
  /** Everything the process wrote to stderr so far (its logs, with --json). */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Kills the process with SIGKILL (no shutdown at all) and resolves once it is gone. */
  kill(): Promise<void>;
}

/** Starts `vigil serve --json --port 0 --grpc-port 0 …` as a child process and waits for its ready line. */
export async function startServeProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawnCli(["serve", "--port", "0", "--grpc-port", "0", "--json", ...args], env);
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = await new Promise<{ url: string }>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes("\n"))
        resolve(JSON.parse(stdout.split("\n")[0] ?? "") as { url: string });
    });
    void exited.then((code) => reject(new Error(`serve exited early (${code}): ${stderr}`)));
  });
  return {
    url: ready.url,
    pid: child.pid ?? 0,
    stderr: () => stderr,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}
