import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Config } from "../config/config-schema.js";
import type { WorkerLeases } from "../lib/leased-scheduler.js";
import type { MetaStore } from "../meta/meta-store.js";

/**
 * A worker's part in the work leases, or undefined on an API node. Every worker, one or many,
 * takes its monitors and alert rules through leases, so one process and a cluster run the same
 * code; a worker id is new at every start.
 */
export function workerLeases(config: Config, meta: MetaStore): WorkerLeases | undefined {
  if (config.role === "api") return undefined;
  return {
    workerId: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    leases: meta.repos.workLeases,
    leaseMs: config.leaseSeconds * 1000,
  };
}
