import { type FormEvent, useState } from "react";
import type { AlertRuleView } from "../../../../src/contracts/alerts";
import { ApiError } from "../../api/client";
import { ProblemMessage } from "../../components/feedback";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { formatTime } from "../../lib/format";
import { useRuleAction } from "./api";

const DURATIONS = [
  { key: "1h", label: "1 hour", ms: 3_600_000 },
  { key: "4h", label: "4 hours", ms: 4 * 3_600_000 },
  { key: "24h", label: "24 hours", ms: 24 * 3_600_000 },
  { key: "7d", label: "7 days", ms: 7 * 24 * 3_600_000 },
  { key: "until", label: "Until a time…", ms: 0 },
  { key: "forever", label: "Indefinitely", ms: 0 },
] as const;
type DurationKey = (typeof DURATIONS)[number]["key"];

/** `datetime-local` wants local time without a zone. */
const localInput = (ms: number) => {
  const d = new Date(ms);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/**
 * Mute for a while, until a time, or indefinitely (the rule is still evaluated and recorded,
 * not notified); or unmute. The server refuses a time in the past, naming `until`.
 */
export function MuteControl({ rule, projectId }: { rule: AlertRuleView; projectId: string }) {
  const mute = useRuleAction(projectId, rule.id, "mute");
  const unmute = useRuleAction(projectId, rule.id, "unmute");
  const [open, setOpen] = useState(false);
  const [duration, setDuration] = useState<DurationKey>("1h");
  const [until, setUntil] = useState(() => localInput(Date.now() + 3_600_000));
  if (rule.muted)
    return (
      <span className="alr-mute">
        <span className="small">
          {rule.mutedUntil ? `Muted until ${formatTime(rule.mutedUntil)}` : "Muted indefinitely"}
        </span>
        <button
          type="button"
          className="button"
          disabled={unmute.isPending}
          onClick={() => unmute.mutate(undefined)}
        >
          Unmute
        </button>
        {unmute.isError && <ProblemMessage error={unmute.error} />}
      </span>
    );
  if (!open)
    return (
      <button type="button" className="button" onClick={() => setOpen(true)}>
        Mute…
      </button>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = DURATIONS.find((d) => d.key === duration);
    const body =
      duration === "forever"
        ? {}
        : duration === "until"
          ? { until: new Date(until).toISOString() }
          : { until: new Date(Date.now() + (chosen?.ms ?? 0)).toISOString() };
    mute.mutate(body, { onSuccess: () => setOpen(false) });
  };
  return (
    <form className="alr-mute-form card" onSubmit={submit} aria-label="Mute the rule">
      <Field
        label="Mute for"
        {...(duration === "until" ? {} : { name: "until" })}
        error={mute.error}
      >
        {(props) => (
          <select
            {...props}
            value={duration}
            onChange={(e) => setDuration(e.target.value as DurationKey)}
          >
            {DURATIONS.map((d) => (
              <option key={d.key} value={d.key}>
                {d.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {duration === "until" && (
        <TextField
          label="Muted until"
          name="until"
          error={mute.error}
          type="datetime-local"
          value={until}
          onChange={setUntil}
        />
      )}
      <p className="muted small">Still evaluated and recorded; no notifications are sent.</p>
      <div className="alr-actions">
        <button type="submit" className="button primary" disabled={mute.isPending}>
          Mute
        </button>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {mute.isError && !(mute.error instanceof ApiError && mute.error.fieldError("until")) && (
        <ProblemMessage error={mute.error} />
      )}
    </form>
  );
}
