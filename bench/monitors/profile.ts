import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { log } from "../harness/run.js";

/**
 * A CPU profile of this process's main thread over the measured window only (--profile <file>,
 * open it in Chrome DevTools or speedscope): where the CPU per check goes, without the start-up,
 * the monitors' creation and the first minute's burst of fresh monitors. Undefined without a file.
 */
export async function startWindowProfile(file: string | undefined) {
  if (!file) return undefined;
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    writeFileSync(file, JSON.stringify(profile));
    log(`CPU profile of the measured window: ${file}`);
  };
}
