/**
 * Runs a ClickHouse shim (test/helpers/clickhouse-shim.ts) as a process of its own, for tests
 * where several service processes share one telemetry server:
 *
 *   npx tsx test/helpers/clickhouse-shim-main.ts <data dir>
 *
 * Optional env: VIGIL_SHIM_USER, VIGIL_SHIM_PASSWORD (the one user it accepts), VIGIL_SHIM_PORT.
 * Prints one JSON line `{"url": "http://127.0.0.1:<port>"}` once it listens; SIGTERM or SIGINT
 * stops it after the requests in flight, exit code 0.
 */
import { startClickHouseShim } from "./clickhouse-shim.js";

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write("usage: clickhouse-shim-main.ts <data dir>\n");
  process.exit(2);
}
const shim = await startClickHouseShim({
  dataDir,
  user: process.env.VIGIL_SHIM_USER,
  password: process.env.VIGIL_SHIM_PASSWORD,
  port: process.env.VIGIL_SHIM_PORT ? Number(process.env.VIGIL_SHIM_PORT) : undefined,
});
process.stdout.write(`${JSON.stringify({ url: shim.url })}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  shim.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`shim close failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
