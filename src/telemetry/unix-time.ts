const TWO_16 = 0x1_0000;
const TWO_32 = 0x1_0000_0000;
const NS_PER_SECOND = 1_000_000_000;
const NS_PER_MS = 1_000_000;

/**
 * A time as whole seconds since the Unix epoch and the nanoseconds past them. OTLP times are
 * 64-bit nanosecond counts, wider than a double holds exactly; two numbers keep every nanosecond
 * without BigInt or text (ADR 0020). Mapped rows carry it in DateTime64 columns: the Native
 * encoder writes it as it is, and the text inserts spell it `seconds.nanoseconds` (toJSON).
 */
export class UnixTime {
  constructor(
    /** Whole seconds since 1970-01-01 UTC (negative only for a time no item may carry). */
    readonly seconds: number,
    /** Nanoseconds past `seconds`, 0 to 999,999,999. */
    readonly nanos: number,
  ) {}

  /**
   * The time of an unsigned 64-bit nanosecond count given as its two 32-bit words (how protobuf
   * decoders hand over a fixed64): the high word is divided by 10^9 first, then the remainder with
   * the low word 16 bits at a time, so no step leaves 2^53.
   */
  static fromWords(low: number, high: number): UnixTime {
    const top = high >>> 0;
    const q2 = Math.floor(top / NS_PER_SECOND);
    let rest = (top - q2 * NS_PER_SECOND) * TWO_16 + (low >>> 16);
    const q1 = Math.floor(rest / NS_PER_SECOND);
    rest = (rest - q1 * NS_PER_SECOND) * TWO_16 + (low & 0xffff);
    const q0 = Math.floor(rest / NS_PER_SECOND);
    return new UnixTime((q2 * TWO_16 + q1) * TWO_16 + q0, rest - q0 * NS_PER_SECOND);
  }

  /** The time of an integer count of nanoseconds from 0 to below 2^64, given as a double. */
  static fromNanosNumber(nanos: number): UnixTime {
    // A double is an exact integer; its words split it exactly (division by a power of two).
    const high = Math.floor(nanos / TWO_32);
    return UnixTime.fromWords(nanos - high * TWO_32, high);
  }

  static fromMillis(ms: number): UnixTime {
    const whole = Math.floor(ms);
    const seconds = Math.floor(whole / 1000);
    return new UnixTime(seconds, (whole - seconds * 1000) * NS_PER_MS);
  }

  /** Whole milliseconds since the epoch (exact: below 2^53 for any 64-bit nanosecond count). */
  get millis(): number {
    return this.seconds * 1000 + Math.floor(this.nanos / NS_PER_MS);
  }

  isBefore(other: UnixTime): boolean {
    return (
      this.seconds < other.seconds || (this.seconds === other.seconds && this.nanos < other.nanos)
    );
  }

  /** Nanoseconds from `earlier` to this time; exact up to 2^53 ns (104 days). */
  nanosSince(earlier: UnixTime): number {
    return (this.seconds - earlier.seconds) * NS_PER_SECOND + (this.nanos - earlier.nanos);
  }

  /**
   * ClickHouse DateTime64(9) text: `seconds.nanoseconds`. The engine reads a number as a Unix time
   * only from ten digits on, so earlier times (an unset start time is 0) go out as calendar text.
   */
  toJSON(): string {
    const fraction = String(this.nanos).padStart(9, "0");
    if (this.seconds >= 1_000_000_000) return `${this.seconds}.${fraction}`;
    const date = new Date(this.seconds * 1000).toISOString();
    return `${date.slice(0, 10)} ${date.slice(11, 19)}.${fraction}`;
  }

  toString(): string {
    return this.toJSON();
  }
}
