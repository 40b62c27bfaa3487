import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { CHILD_ENTRY, childBuildReady } from "./child-build.js";

const ENTRY = fileURLToPath(new URL("./cli-entry.ts", import.meta.url));
/** `bin/vigil.js`, as the README runs it: it needs `npm run build` first (it runs dist/). */
export const VIGIL_BIN = fileURLToPath(new URL("../../bin/vigil.js", import.meta.url));

export interface SpawnOptions {
  /** Working directory (the default data dir `./data` is relative to it). */
  cwd?: string;
  /** Run the built `bin/vigil.js` instead of the sources. */
  built?: boolean;
}

/**
 * How a child runs the CLI from source: the sources the suite's global setup compiled, or tsx
 * when they are not there (a test file run outside this vitest config).
 */
export const sourceEntry = (): string[] =>
  childBuildReady() ? [CHILD_ENTRY] : ["--import", "tsx", ENTRY];

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
  options: SpawnOptions = {},
): ChildProcessWithoutNullStreams {
  if (options.built && !existsSync(fileURLToPath(new URL("../../dist/main.js", import.meta.url))))
    throw new Error("dist/ is missing: run `npm run build` before this test");
  const entry = options.built ? [VIGIL_BIN] : sourceEntry();
  return spawn(process.execPath, [...entry, ...args], {
    env: childEnv(env),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
}

/** Runs `vigil args…` to completion and collects its output. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  options: SpawnOptions & { stdin?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env, options);
    child.stdin.end(options.stdin ?? "");
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
  options: SpawnOptions = {},
): Promise<ServeProcess> {
  const child = spawnCli(
    ["serve", "--port", "0", "--grpc-port", "0", "--json", ...args],
    env,
    options,
  );
  const { pid } = child;
  if (pid === undefined) throw new Error("vigil serve did not start");
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = await new Promise<{ url: string }>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (!stdout.includes("\n")) return;
      const line = JSON.parse(stdout.split("\n")[0] ?? "") as { url?: string };
      if (line.url) resolve(line as { url: string });
      else reject(new Error(`serve did not start: ${stdout.trim()} ${stderr}`));
    });
    void exited.then((code) => reject(new Error(`serve exited early (${code}): ${stderr}`)));
  });
  return {
    url: ready.url,
    pid,
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

/** The one JSON line a `--json` command prints, parsed. */
export const parseOne = (stdout: string): Record<string, unknown> => {
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? "") as Record<string, unknown>;
};
