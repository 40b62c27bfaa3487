// The port the leased scheduler shares work through; the metadata store implements it
// (meta/repositories/work-leases.ts, migration 0008).

/** What a lease divides: one row per monitor or alert rule. */
export type LeaseKind = "monitor" | "alert_rule";

/** A lease this worker holds: the fencing token its writes must show, and the last slot run. */
export interface HeldLease {
  entityId: string;
  token: number;
  /** Epoch ms of the last slot whose run was recorded (0 = never run). */
  lastSlot: number;
}

/** What a write made under a lease carries, checked in the write's own transaction. */
export interface LeaseFence {
  kind: LeaseKind;
  entityId: string;
  owner: string;
  token: number;
  /** The slot the run stands for; recorded as the lease's last slot. */
  slot: number;
}

/** Where leases live: what a worker does to take part, keep its share and hand it back. */
export interface WorkLeasePort {
  /**
   * Records that this worker is alive until `expiresAt`, drops workers that stopped renewing,
   * and resolves with how many workers of this kind are alive (this one included).
   */
  heartbeat(kind: LeaseKind, workerId: string, now: string, expiresAt: string): Promise<number>;
  /** Leaves: frees this worker's leases at once (a clean shutdown hands work over without waiting). */
  leave(kind: LeaseKind, workerId: string): Promise<void>;
  /**
   * Makes the lease rows match the entities that exist: new ones get a free lease, leases of
   * entities gone (deleted, paused) are dropped. Resolves with the number of leases.
   */
  reconcile(kind: LeaseKind, entityIds: readonly string[]): Promise<number>;
  /** The leases this worker holds (a read: the heartbeat is what keeps them). */
  held(kind: LeaseKind, workerId: string): Promise<HeldLease[]>;
  /** Claims up to `limit` leases that are free or whose owner's heartbeat ran out. */
  claim(kind: LeaseKind, workerId: string, now: string, limit: number): Promise<HeldLease[]>;
  /** Gives leases back (only those this worker still holds under these tokens). */
  release(kind: LeaseKind, workerId: string, leases: readonly HeldLease[]): Promise<void>;
}
