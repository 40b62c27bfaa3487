import { parseDuration } from "../../../../src/contracts/monitor-catalog";
import { TextField } from "../../components/text-field";
import { type KindFieldsProps, slotSetter } from "./kind-fields";
import { PingInstructions } from "./ping-instructions";

const PERIODS = ["1m", "5m", "15m", "1h", "6h", "1d", "7d"];
const GRACES = ["0s", "1m", "5m", "15m", "1h"];

/** 90 → "1 min 30 s", 3600 → "1 hour", 86400 → "1 day". */
export function durationWords(seconds: number): string {
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, one, many] of [
    [86_400, "day", "days"],
    [3600, "hour", "hours"],
    [60, "min", "min"],
    [1, "s", "s"],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${n === 1 ? one : many}`);
  }
  return parts.length === 0 ? "0 s" : parts.join(" ");
}

/** heartbeat: how often the job pings and how late a ping may be; once saved, its ping URL. */
export function HeartbeatFields({ draft, update, error, monitor }: KindFieldsProps) {
  const set = slotSetter(update, "heartbeat");
  const { heartbeat } = draft;
  const period = parseDuration(heartbeat.period);
  const grace = parseDuration(heartbeat.grace);
  return (
    <>
      <section className="card mon-kind" aria-label="Expected pings">
        <h2>Expected pings</h2>
        <div className="mon-settings">
          <TextField
            label="Period"
            name="period"
            error={error}
            hint="How often the job runs: 1m to 30d, e.g. 5m, 1h, 1d"
            className="mono"
            list="mon-periods"
            spellCheck={false}
            value={heartbeat.period}
            onChange={(value) => set({ period: value })}
          />
          <TextField
            label="Grace"
            name="grace"
            error={error}
            hint="How late a ping may be: 0s to 7d"
            className="mono"
            list="mon-graces"
            spellCheck={false}
            value={heartbeat.grace}
            onChange={(value) => set({ grace: value })}
          />
        </div>
        <datalist id="mon-periods">
          {PERIODS.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <datalist id="mon-graces">
          {GRACES.map((g) => (
            <option key={g} value={g} />
          ))}
        </datalist>
        {period !== undefined && grace !== undefined && (
          <p className="small" role="note">
            A ping is expected every {durationWords(period)}; when none comes within{" "}
            {durationWords(period + grace)} of the last, the check fails (and “alert after” counts
            the missed periods).
          </p>
        )}
        {!monitor && (
          <p className="muted small">
            Once saved, the heartbeat's secret ping URL and the lines to call it are shown here and
            on its page.
          </p>
        )}
      </section>
      {monitor && <PingInstructions monitor={monitor} />}
    </>
  );
}
