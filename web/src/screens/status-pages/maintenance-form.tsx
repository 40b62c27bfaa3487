import { type FormEvent, useState } from "react";
import type {
  StatusPageComponentView,
  StatusPageMaintenanceView,
} from "../../../../src/contracts/status-pages";
import { FormProblem } from "../../components/feedback";
import { FieldGroup, toggled } from "../../components/field-group";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import type { MaintenanceInput } from "./api";

const FIELDS = ["title", "message", "startsAt", "endsAt", "componentIds"] as const;
const HOUR = 3_600_000;

/** An instant as a `datetime-local` value, in the browser's time zone (minutes). */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A `datetime-local` value (the browser's time zone) as an ISO instant; "" when empty. */
export function fromLocalInput(value: string): string {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A maintenance window: title, message, start and end, and the components it covers. */
export function MaintenanceForm({
  components,
  maintenance,
  pending,
  error,
  onSubmit,
}: {
  components: readonly StatusPageComponentView[];
  maintenance?: StatusPageMaintenanceView | undefined;
  pending: boolean;
  error: unknown;
  onSubmit: (input: MaintenanceInput) => void;
}) {
  const [start] = useState(() => Math.ceil(Date.now() / HOUR) * HOUR);
  const [title, setTitle] = useState(maintenance?.title ?? "");
  const [message, setMessage] = useState(maintenance?.message ?? "");
  const [startsAt, setStartsAt] = useState(
    toLocalInput(maintenance?.startsAt ?? new Date(start).toISOString()),
  );
  const [endsAt, setEndsAt] = useState(
    toLocalInput(maintenance?.endsAt ?? new Date(start + 2 * HOUR).toISOString()),
  );
  const [componentIds, setComponentIds] = useState<string[]>(maintenance?.componentIds ?? []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({
      title,
      message,
      startsAt: fromLocalInput(startsAt),
      endsAt: fromLocalInput(endsAt),
      componentIds,
    });
  };
  return (
    <form
      className="form"
      onSubmit={submit}
      aria-label={maintenance ? `Edit maintenance ${maintenance.title}` : "Schedule maintenance"}
    >
      <TextField
        label="Title"
        name="title"
        error={error}
        value={title}
        required
        maxLength={200}
        placeholder="Database upgrade"
        onChange={setTitle}
      />
      <Field label="Message" name="message" error={error} hint="Shown on the public page">
        {(props) => (
          <textarea
            {...props}
            value={message}
            maxLength={5000}
            onChange={(e) => setMessage(e.target.value)}
          />
        )}
      </Field>
      <div className="sp-two">
        <TextField
          label="Starts"
          name="startsAt"
          error={error}
          hint={`Your time (${browserZone})`}
          type="datetime-local"
          value={startsAt}
          required
          onChange={setStartsAt}
        />
        <TextField
          label="Ends"
          name="endsAt"
          error={error}
          hint="At most 7 days after the start"
          type="datetime-local"
          value={endsAt}
          required
          onChange={setEndsAt}
        />
      </div>
      <FieldGroup legend="Components under maintenance" name="componentIds" error={error}>
        {components.length === 0 && (
          <p className="muted small">Add a component first: a window covers at least one.</p>
        )}
        {components.map((c) => (
          <label key={c.id} className="sp-check">
            <input
              type="checkbox"
              checked={componentIds.includes(c.id)}
              onChange={(e) => setComponentIds((ids) => toggled(ids, c.id, e.target.checked))}
            />
            <span>{c.name}</span>
          </label>
        ))}
      </FieldGroup>
      <FormProblem error={error} fields={FIELDS} />
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? "Saving…" : maintenance ? "Save window" : "Schedule maintenance"}
      </button>
    </form>
  );
}
