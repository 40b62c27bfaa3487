import { randomFillSync } from "node:crypto";

/** Random bytes drawn 4 KiB at a time (as ids.ts draws its own). */
const POOL = Buffer.alloc(4096);
let pooled = POOL.length;

/**
 * `size` random bytes (a new buffer), like crypto.randomBytes but from a pool refilled by one
 * system call per 4 KiB: a monitor check's trace and span ids were two calls of ~30 µs each.
 */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL.length) return Buffer.from(randomFillSync(Buffer.alloc(size)));
  if (pooled + size > POOL.length) {
    randomFillSync(POOL);
    pooled = 0;
  }
  const bytes = Buffer.from(POOL.subarray(pooled, pooled + size));
  pooled += size;
  return bytes;
}
