import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const SHIM_MAIN = fileURLToPath(new URL("./clickhouse-shim-main.ts", import.meta.url));

export interface ShimProcess {
  url: string;
  /** SIGTERM, then its exit code once it is gone. */
  stop(): Promise<number | null>;
}

/**
 * Starts the test ClickHouse endpoint (chDB behind the HTTP shim) as a process of its own and
 * waits for the JSON line with its URL. `env` adds VIGIL_SHIM_USER / VIGIL_SHIM_PASSWORD.
 */
export async function startShimProcess(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ShimProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", SHIM_MAIN, dataDir], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
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
    void exited.then((code) => reject(new Error(`ClickHouse shim exited (${code}): ${stderr}`)));
  });
  return {
    url,
    stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
