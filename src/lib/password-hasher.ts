import { hashPassword, verifyPassword } from "./crypto.js";
import { UnavailableError } from "./domain-errors.js";

/** How many password hashes run at once, and how many may wait for a turn. */
export interface PasswordHashingLimits {
  maxConcurrent: number;
  maxQueued: number;
}

/** What hashes and checks passwords: scrypt (lib/crypto.ts); tests pass one they can hold. */
export interface PasswordScheme {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

const SCRYPT: PasswordScheme = { hash: hashPassword, verify: verifyPassword };

/** Seconds a caller refused for a full queue is told to wait (a queue drains in about that). */
const RETRY_AFTER_SECONDS = 1;

/**
 * Every password hash and check goes through here. scrypt runs on libuv's thread pool (4
 * threads unless UV_THREADPOOL_SIZE says otherwise), which zlib (request decompression), fs and
 * dns.lookup share: holding hashes to `maxConcurrent` leaves the other threads to them, and a
 * short queue beyond it is refused at once (503 + Retry-After) instead of growing with a flood.
 */
export class PasswordHasher {
  #running = 0;
  readonly #queue: (() => void)[] = [];

  /** `onRefused` hears each hash refused because the queue was full (for a counter). */
  constructor(
    readonly limits: PasswordHashingLimits,
    private readonly onRefused: () => void = () => {},
    private readonly scheme: PasswordScheme = SCRYPT,
  ) {
    if (!(limits.maxConcurrent >= 1 && limits.maxQueued >= 0))
      throw new RangeError("maxConcurrent must be at least 1 and maxQueued at least 0");
  }

  /** Hashes running now. */
  get running(): number {
    return this.#running;
  }

  /** Hashes waiting for a turn. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Hashes a new password (`scrypt$N$r$p$salt$hash`). */
  hash(password: string): Promise<string> {
    return this.#bounded(() => this.scheme.hash(password));
  }

  /** Checks a password against a stored hash. */
  verify(password: string, stored: string): Promise<boolean> {
    return this.#bounded(() => this.scheme.verify(password, stored));
  }

  async #bounded<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running < this.limits.maxConcurrent) {
      this.#running += 1;
    } else if (this.#queue.length < this.limits.maxQueued) {
      // The finishing hash hands its turn over without giving it up (see finally).
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    } else {
      this.onRefused();
      throw new UnavailableError(
        "Too many passwords are being checked at once; retry shortly",
        RETRY_AFTER_SECONDS,
      );
    }
    try {
      return await work();
    } finally {
      const next = this.#queue.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
