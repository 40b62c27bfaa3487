import { type FormEvent, useId, useState } from "react";
import { RANGE_PRESETS, type RangeChoice, type TimeRange, zoomOut } from "../lib/time-range";
import "./time-range-picker.css";

/** An instant as a `datetime-local` value (the browser's time zone, to the second). */
function localInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(
    d.getMinutes(),
  )}:${pad(d.getSeconds())}`;
}

/**
 * The session's time range: relative presets, an absolute start and end (local time), and a
 * step out. Every screen shows the same one; the choice goes to the URL and the session.
 */
export function TimeRangePicker({
  range,
  onChange,
}: {
  range: TimeRange;
  onChange: (next: RangeChoice, options?: { push?: boolean }) => void;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState("");
  const formId = useId();
  const listed = RANGE_PRESETS.some((p) => p.key === range.key);
  const wider = zoomOut(range.spec, Date.now());
  const canZoomOut = JSON.stringify(wider) !== JSON.stringify(range.spec);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const from = Date.parse(String(data.get("from") ?? ""));
    const to = Date.parse(String(data.get("to") ?? ""));
    if (Number.isNaN(from)) return setError("Enter the start of the range.");
    if (Number.isNaN(to)) return setError("Enter the end of the range.");
    if (from >= to) return setError("The start must be before the end.");
    setError("");
    setOpen(false);
    onChange(
      { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
      { push: true },
    );
  };

  return (
    <div className="time-range">
      <label className="inline-field">
        <span className="visually-hidden">Time range</span>
        <select
          value={range.key}
          onChange={(e) => onChange(e.target.value)}
          aria-label="Time range"
        >
          {!listed && <option value={range.key}>{range.label}</option>}
          {RANGE_PRESETS.map((p) => (
            <option key={p.key} value={p.key}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className={`button small${open ? " primary" : ""}`}
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen(!open)}
      >
        Absolute…
      </button>
      <button
        type="button"
        className="button small"
        disabled={!canZoomOut}
        title="Twice as long (Back returns to the range before)"
        onClick={() =>
          onChange(wider.kind === "relative" ? wider.key : { from: wider.from, to: wider.to }, {
            push: true,
          })
        }
      >
        Zoom out
      </button>
      {open && (
        <form
          id={formId}
          className="time-range-absolute"
          aria-label="Absolute range"
          onSubmit={apply}
          noValidate
        >
          <DateTimeInput label="Start" name="from" at={range.from} />
          <DateTimeInput label="End" name="to" at={range.to} />
          <span className="muted small">
            {Intl.DateTimeFormat().resolvedOptions().timeZone || "local time"}
          </span>
          <button type="submit" className="button small primary">
            Apply
          </button>
          {error && (
            <p role="alert" className="field-error small">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}

/** One end of the absolute range, in the browser's time zone, to the second. */
function DateTimeInput({ label, name, at }: { label: string; name: string; at: string }) {
  return (
    <label>
      <span>{label}</span>
      <input
        type="datetime-local"
        name={name}
        step={1}
        defaultValue={localInput(at)}
        aria-label={`Range ${label.toLowerCase()}`}
      />
    </label>
  );
}
