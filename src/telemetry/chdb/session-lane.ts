import type { Session } from "chdb";

/** A statement whose only job is to carry away whatever a failed statement left in the session. */
const FLUSH_SQL = "SELECT 1";

/**
 * One chDB session and the statements waiting for it, run one at a time in order.
 *
 * chDB runs a session's statements one after another anyway, and it keeps the output a
 * statement wrote before failing (a timeout, a memory limit, a throwIf) and hands it to the
 * *next* statement on the same session as a prefix of its result (other sessions never see it).
 * With several tenants sharing a session that would show one project's partial rows to another,
 * so after any failure the lane runs a flush statement on this session, discarding its result,
 * before the next statement may start.
 */
export class SessionLane {
  private tail: Promise<unknown> = Promise.resolve();
  /**
   * How much is queued or running on this lane: each statement weighs one, an insert its rows.
   * Zero when the lane is idle.
   */
  load = 0;
  /** Of those, ad-hoc queries (TQL), which may run until their time limit. */
  adHoc = 0;
  /** The statement running now, for diagnostics: what it is and since when (performance.now()). */
  current: { what: string; since: number } | undefined;

  constructor(readonly session: Session) {}

  /** Runs `work` after every earlier statement on this lane (flushed, if it failed). */
  run<T>(
    work: (session: Session) => Promise<T>,
    adHoc = false,
    what = "statement",
    weight = 1,
  ): Promise<T> {
    this.load += weight;
    if (adHoc) this.adHoc += 1;
    const run = this.tail.then(async () => {
      this.current = { what, since: performance.now() };
      try {
        return await work(this.session);
      } catch (error) {
        await this.flush();
        throw error;
      } finally {
        this.current = undefined;
        this.load -= weight;
        if (adHoc) this.adHoc -= 1;
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Resolves once everything queued so far has finished. */
  async idle(): Promise<void> {
    let seen: Promise<unknown> | undefined;
    while (seen !== this.tail) {
      seen = this.tail;
      await seen;
    }
  }

  private async flush(): Promise<void> {
    try {
      await this.session.queryAsync(FLUSH_SQL, { format: "CSV" });
    } catch {
      // Nothing to carry away, or the engine is failing as a whole: the caller sees the original error.
    }
  }
}
