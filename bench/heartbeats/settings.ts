import { parseArgs } from "node:util";
import { parseDuration } from "../../src/contracts/monitor-catalog.js";

// The bench's settings (command-line flags).

export const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "10000" },
    /** How many heartbeats stop pinging after the first full period. */
    stop: { type: "string", default: "100" },
    period: { type: "string", default: "1m" },
    grace: { type: "string", default: "10s" },
    /** Connections of the closing burst (pings as fast as the server answers them). */
    connections: { type: "string", default: "16" },
    "burst-seconds": { type: "string", default: "10" },
  },
});
export const MONITORS = Number(args.monitors);
export const STOPPED = Number(args.stop);
export const PERIOD = args.period;
export const GRACE = args.grace;
export const PERIOD_MS = (parseDuration(PERIOD) ?? Number.NaN) * 1000;
export const GRACE_MS = (parseDuration(GRACE) ?? Number.NaN) * 1000;
export const CONNECTIONS = Number(args.connections);
export const BURST_SECONDS = Number(args["burst-seconds"]);
/** The target (issue 36): a missed ping is recorded within grace + 5 s, i.e. ≤ 5 s after its deadline. */
export const TARGET_LATENESS_MS = 5000;
/** After the last stopped heartbeat's deadline, how long pings go on before the store is read. */
export const SETTLE_MS = 10_000;
