import { createHmac } from "node:crypto";
import { addressBucket } from "../lib/client-address.js";
import { sha256Hex } from "../lib/crypto.js";
import { RateLimitedError } from "../lib/domain-errors.js";

/** One fixed window of a counter: hits in it so far, and ms until it ends. */
export interface AttemptWindow {
  current: number;
  ttl: number;
}

/**
 * Where sign-in attempts are counted: the server's rate-limit counter (in memory, or in the
 * Redis every API node shares), so the limits hold across nodes like every other limit.
 */
export interface AttemptCounter {
  increment(key: string, windowMs: number): Promise<AttemptWindow>;
  decrement(key: string): Promise<void>;
  peek(key: string): Promise<AttemptWindow | undefined>;
}

/** The sign-in policy's numbers (config `auth.*`, docs/operations.md "Sign-in"). */
export interface LoginLimits {
  /** Failed sign-ins one client address may make per window, whatever the emails. */
  failuresPerAddress: number;
  addressWindowMinutes: number;
  /** Failed sign-ins for one email from all addresses per window (known addresses exempt). */
  failuresPerAccount: number;
  accountWindowMinutes: number;
  /** How long an address that signed in to an account stays exempt from that account's limit. */
  knownAddressDays: number;
}

/** Which limit refused a sign-in: the address's, the email's, or the address-and-email rate. */
export type LoginRefusal = "address" | "account" | "address_account";

/** Attempts (failed or not) for one email from one address per minute: bounds even successes. */
const ATTEMPTS_PER_ADDRESS_AND_ACCOUNT = 20;
const MINUTE_MS = 60_000;

/** An admitted sign-in attempt: its charges stand when it fails, and are taken back otherwise. */
export interface LoginAttempt {
  /** The password was right: not a failure, and this address is now known for the account. */
  succeeded(): Promise<void>;
  /** Nothing was decided (the hash was refused, the store failed): not a failure either. */
  abandoned(): Promise<void>;
}

/**
 * Counter keys carry digests, never an email or an address (Redis keys end up in dumps and logs).
 * Keyed with a server secret when given, so a dump cannot be reversed by hashing every IPv4
 * address or a list of emails; a plain digest otherwise (the CLI, which signs nobody in).
 */
const digester =
  (key: Buffer | undefined) =>
  (value: string): string =>
    key === undefined
      ? sha256Hex(`vigil-login\n${value}`).slice(0, 32)
      : createHmac("sha256", key).update(value).digest("hex").slice(0, 32);

/**
 * The sign-in policy (docs/operations.md "Sign-in"), counted in the shared rate-limit counter:
 * failures per client address whatever the email; failures per email across addresses, which
 * an address that signed in to that account recently is exempt from; and attempts per address
 * and email per minute. Each attempt is charged before its password is checked (so a burst
 * cannot slip past the count) and refunded unless it failed.
 */
export class LoginThrottle {
  private readonly digest: (value: string) => string;

  constructor(
    private readonly counter: AttemptCounter,
    readonly limits: LoginLimits,
    private readonly onRefused: (reason: LoginRefusal) => void = () => {},
    /** A secret for the counter keys' digests (see digester). */
    keyDigestSecret?: Buffer,
  ) {
    this.digest = digester(keyDigestSecret);
  }

  /** Charges one attempt, or refuses it with rate_limited (and when to retry) beyond a limit. */
  async admit(address: string, email: string): Promise<LoginAttempt> {
    const from = addressBucket(address);
    const keys = {
      address: `login:address:${this.digest(from)}`,
      pair: `login:pair:${this.digest(`${from}\n${email}`)}`,
      account: `login:account:${this.digest(email)}`,
      known: `login:known:${this.digest(`${from}\n${email}`)}`,
    };
    const { limits, counter } = this;
    // Beyond the address's budget nothing else is counted: a flood of new emails adds no keys.
    const byAddress = await counter.increment(
      keys.address,
      limits.addressWindowMinutes * MINUTE_MS,
    );
    if (byAddress.current > limits.failuresPerAddress)
      throw this.refuse("address", byAddress.ttl, "Too many failed sign-ins from this address");
    const byPair = await counter.increment(keys.pair, MINUTE_MS);
    if (byPair.current > ATTEMPTS_PER_ADDRESS_AND_ACCOUNT)
      throw this.refuse(
        "address_account",
        byPair.ttl,
        "Too many sign-ins for this email from this address",
      );
    const byAccount = await counter.increment(
      keys.account,
      limits.accountWindowMinutes * MINUTE_MS,
    );
    if (byAccount.current > limits.failuresPerAccount && !(await counter.peek(keys.known)))
      throw this.refuse("account", byAccount.ttl, "Too many failed sign-ins for this email");
    const refund = () =>
      Promise.all([counter.decrement(keys.address), counter.decrement(keys.account)]);
    return {
      async succeeded() {
        await Promise.all([
          refund(),
          counter.increment(keys.known, limits.knownAddressDays * 24 * 60 * MINUTE_MS),
        ]);
      },
      async abandoned() {
        await refund();
      },
    };
  }

  private refuse(reason: LoginRefusal, ttlMs: number, what: string): RateLimitedError {
    this.onRefused(reason);
    const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
    return new RateLimitedError(`${what}; retry in ${seconds} s`, seconds);
  }
}
