/**
 * npm run bench:monitors — --monitors (10,000) api monitors every minute against a local target
 * (a child process), checked by the scheduler, runner and recording as the service builds them
 * (src/composition/monitors.ts), beside a bare undici loop at the same request rate. Reports the
 * checks per second, schedule lag, coverage of every slot, CPU per check (split into the event
 * loop's thread and the others, with the collector's pauses), event-loop delay, RSS
 * and what the store holds; only measured figures and the measured baseline, no outside
 * reference. The last line is one JSON object; its `cpuPerCheck` is issue 37's figure (CPU per
 * check beside the bare loop's per request, target 400 µs at 100 checks/s: --monitors 6000).
 * --profile <file> writes a CPU profile of the measured window; --parts-seconds N then measures
 * where a check's CPU goes (bench/monitors/parts.ts). The bench's parts: bench/monitors/.
 */

import { log, withTempDir } from "./harness/run.js";
import { startTarget } from "./monitor-target.js";
import { baseline } from "./monitors/baseline.js";
import { measureParts } from "./monitors/parts.js";
import { report } from "./monitors/report.js";
import { monitorsResult } from "./monitors/result.js";
import {
  BASELINE_SECONDS,
  BASELINE_WARMUP_SECONDS,
  MONITORS,
  PARTS_ROUNDS,
  PARTS_SECONDS,
  PERIOD_MS,
  SECONDS,
  WARMUP_SECONDS,
} from "./monitors/settings.js";
import { startVigil } from "./monitors/vigil.js";
import { measureWindow, readStore } from "./monitors/window.js";

async function main() {
  if (!(MONITORS > 0 && SECONDS > 0 && WARMUP_SECONDS >= 0 && BASELINE_SECONDS > 0))
    throw new Error("--monitors, --seconds and --baseline-seconds must be positive");
  return withTempDir("monitors", async (dataDir, cleanups) => {
    const target = await startTarget();
    cleanups.push(() => target.stop());
    const url = `${target.origin}/api/health`;
    log(`Target: ${url} (child process)`);
    const vigil = await startVigil(dataDir, url, cleanups);

    // Baseline: the same request rate, bare.
    const rate = MONITORS / (PERIOD_MS / 1000);
    log(
      `Baseline: bare undici loop, ${rate.toFixed(1)} requests/s for ${BASELINE_SECONDS} s ` +
        `after ${BASELINE_WARMUP_SECONDS} s of warm-up`,
    );
    const targetBeforeBaseline = await target.stats();
    const bare = await baseline(url, rate, BASELINE_SECONDS);
    const targetAfterBaseline = await target.stats();
    log(`  ${JSON.stringify(bare)}`);

    const window = await measureWindow(vigil, target);
    const parts =
      PARTS_SECONDS > 0
        ? await measureParts({
            url,
            rate,
            seconds: PARTS_SECONDS,
            rounds: PARTS_ROUNDS,
            monitors: await vigil.meta.repos.monitors.listActive(),
            run: vigil.run,
            engine: vigil.engine,
          })
        : undefined;
    return monitorsResult({
      parts,
      concurrency: vigil.config.monitors.concurrency,
      createSeconds: vigil.createSeconds,
      window,
      store: readStore(dataDir, window.t0, window.t1),
      bare,
      targetBeforeBaseline,
      targetAfterBaseline,
    });
  });
}

report(await main());
