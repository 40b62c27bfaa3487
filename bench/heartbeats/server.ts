import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { benchEnv, cpuSeconds } from "../harness/serve-process.js";

const ENTRY = fileURLToPath(new URL("./serve-entry.ts", import.meta.url));
/** Sends the child's imports of src/ to dist/, as the bench's own (see the file). */
const PRODUCTION_CODE = fileURLToPath(new URL("../harness/production-code.mjs", import.meta.url));

/**
 * `vigil serve` from the compiled dist/ (its entry through tsx) as its own process on the seeded data dir, so its CPU is
 * read from /proc apart from the bench's pinger: the watcher and every ping's recording run there.
 */
export async function startHeartbeatServer(dataDir: string) {
  const env = benchEnv({
    // One address sends every ping; the per-token limit stays as shipped.
    VIGIL_HEARTBEAT_PINGS_PER_MINUTE_PER_ADDRESS: "10000000",
    VIGIL_HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0",
    VIGIL_GRPC_ENABLED: "false",
    VIGIL_WEBHOOKS_ENABLED: "false",
    VIGIL_ALERTS_ENABLED: "false",
  });
  const args = ["serve", "--port", "0", "--grpc-port", "0", "--json", "--data-dir", dataDir];
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--import", PRODUCTION_CODE, ENTRY, ...args],
    { env },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n"))
        resolve((JSON.parse(out.split("\n")[0] ?? "") as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const pid = child.pid as number;
  return {
    url,
    pid,
    cpuSeconds: () => cpuSeconds(pid),
    stderr: () => stderr,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
export type HeartbeatServer = Awaited<ReturnType<typeof startHeartbeatServer>>;
