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
): Promise<RunningService> {
  const config = loadConfig({ env: { VIGIL_DATA_DIR: dataDir, ...env } });
  const service = await startService(config, createLogger("warn", process.stderr));
  cleanups.push(() => service.stop());
  return service;
}
