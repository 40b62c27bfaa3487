import type { SeriesState } from "../contracts/alert-catalog.js";

/** The state-machine columns of one series (`alert_series`), ISO times. */
export interface SeriesStateSnapshot {
  state: SeriesState;
  /** When the current breach began; set only while pending. */
  pendingSince: string | null;
  /** When the series fired; set only while firing. */
  firedAt: string | null;
}

export type SeriesTransition = "none" | "pending" | "fired" | "resolved" | "cancelled";

export interface NextSeriesState extends SeriesStateSnapshot {
  transition: SeriesTransition;
}

/**
 * One evaluation of one series: `ok → pending → firing → ok`. A breach fires at once when
 * `forSeconds` is 0, otherwise once it has lasted `forSeconds`; a pending series that stops
 * breaching is cancelled, a firing one resolves. `no_data_keep` leaves the state as it was.
 */
export function nextSeriesState(
  prev: SeriesStateSnapshot | undefined,
  breaching: boolean | "no_data_keep",
  now: Date,
  forSeconds: number,
): NextSeriesState {
  const current: SeriesStateSnapshot = prev ?? { state: "ok", pendingSince: null, firedAt: null };
  const at = now.toISOString();
  const stay = (): NextSeriesState => ({ ...current, transition: "none" });
  const ok = (transition: SeriesTransition): NextSeriesState => ({
    state: "ok",
    pendingSince: null,
    firedAt: null,
    transition,
  });
  const fire = (): NextSeriesState => ({
    state: "firing",
    pendingSince: null,
    firedAt: at,
    transition: "fired",
  });
  if (breaching === "no_data_keep") return stay();
  switch (current.state) {
    case "ok":
      if (!breaching) return stay();
      if (forSeconds <= 0) return fire();
      return { state: "pending", pendingSince: at, firedAt: null, transition: "pending" };
    case "pending": {
      if (!breaching) return ok("cancelled");
      const since = current.pendingSince ? Date.parse(current.pendingSince) : now.getTime();
      if (now.getTime() - since >= forSeconds * 1000) return fire();
      return { ...current, pendingSince: current.pendingSince ?? at, transition: "none" };
    }
    case "firing":
      return breaching ? stay() : ok("resolved");
  }
}
