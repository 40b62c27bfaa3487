import { type RunningService, startService } from "../../src/cli/serve.js";
import { loadConfig } from "../../src/config/load-config.js";
import { createLogger } from "../../src/lib/logger.js";
import type { Cleanups } from "./run.js";

/**
 * The whole service in this process, as `vigil serve` starts it, on a temporary data dir with
 * `env` (VIGIL_* settings); stopped with the cleanups.
 */
export async function startInProcessService(
  dataDir: string,
  env: Record<string, string>,
  cleanups: Cleanups,
  /** Where the service's warnings go: stderr unless a bench keeps them on stdout. */
  logTo: "stderr" | "stdout" = "stderr",
): Promise<RunningService> {
  const config = loadConfig({ env: { VIGIL_DATA_DIR: dataDir, ...env } });
  const logger = createLogger("warn", logTo === "stderr" ? process.stderr : undefined);
  const service = await startService(config, logger);
  cleanups.push(() => service.stop());
  return service;
}
