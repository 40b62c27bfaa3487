import { type FormEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import {
  ALERT_AFTER,
  FREQUENCY_NAMES,
  type Frequency,
  MAX_ASSERTIONS,
  MAX_STEPS,
  TIMEOUT_SECONDS,
} from "../../../../src/contracts/monitor-catalog";
import type { MonitorView } from "../../../../src/contracts/monitors";
import { ApiError } from "../../api/client";
import { canWrite } from "../../api/session";
import { Empty, ProblemMessage, QueryView } from "../../components/feedback";
import { TextField } from "../../components/text-field";
import { Field, PageHeader } from "../../components/ui";
import { useProject } from "../project-context";
import { useMonitor, useSaveMonitor } from "./api";
import { ChannelPicker } from "./channel-picker";
import {
  type Draft,
  emptyDraft,
  fromMonitor,
  move,
  newStep,
  toInput,
  unknownPlaceholders,
  variablesBefore,
} from "./draft";
import { frequencyLabel } from "./state";
import { StepEditor } from "./step-editor";

/** `/monitors/new`. */
export function NewMonitor() {
  return <MonitorForm initial={emptyDraft()} />;
}

/** `/monitors/:monitorId/edit`: the form once the monitor is loaded. */
export function EditMonitor({ monitorId }: { monitorId: string }) {
  const { projectId } = useProject();
  const monitor = useMonitor(projectId, monitorId);
  return (
    <QueryView query={monitor}>
      {(data) => <MonitorForm key={data.id} initial={fromMonitor(data)} monitor={data} />}
    </QueryView>
  );
}

function MonitorForm({ initial, monitor }: { initial: Draft; monitor?: MonitorView }) {
  const { projectId, role } = useProject();
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState(initial);
  const save = useSaveMonitor(projectId, monitor?.id);
  const flow = draft.type === "flow";
  const totalAssertions = draft.steps.reduce((n, s) => n + s.assertions.length, 0);
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  /** Rows moved or removed: the server's field paths no longer point at the same rows. */
  const restructure = (steps: Draft["steps"]) => {
    save.reset();
    set({ steps });
  };
  if (!canWrite(role))
    return (
      <Empty title="Viewers cannot change monitors">
        <Link href="/">Back to monitors</Link>
      </Empty>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(toInput(draft), { onSuccess: (saved) => navigate(`/${saved.id}`) });
  };
  const error = save.error;
  return (
    <form className="mon-form" onSubmit={submit} noValidate>
      <PageHeader title={monitor ? `Edit ${monitor.name}` : "New monitor"}>
        <Link href={monitor ? `/${monitor.id}` : "/"} className="muted small">
          ← {monitor ? monitor.name : "Monitors"}
        </Link>
      </PageHeader>
      <section className="card">
        <h2>Settings</h2>
        <div className="mon-settings">
          <TextField
            label="Name"
            name="name"
            error={error}
            hint="Appears in alerts"
            value={draft.name}
            required
            onChange={(v) => set({ name: v })}
          />
          <Field label="Type" name="type" error={error}>
            {(props) => (
              <select
                {...props}
                value={draft.type}
                onChange={(e) => set({ type: e.target.value as Draft["type"] })}
              >
                <option value="api" disabled={draft.steps.length > 1}>
                  API endpoint (one request)
                </option>
                <option value="flow">Multi-step flow</option>
                <option value="browser" disabled>
                  Browser check (coming soon)
                </option>
                <option value="e2e" disabled>
                  E2E journey (coming soon)
                </option>
              </select>
            )}
          </Field>
          <Field label="Check frequency" name="frequency" error={error}>
            {(props) => (
              <select
                {...props}
                value={draft.frequency}
                onChange={(e) => set({ frequency: e.target.value as Frequency })}
              >
                {FREQUENCY_NAMES.map((f) => (
                  <option key={f} value={f}>
                    Every {frequencyLabel(f)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextField
            label="Timeout (seconds)"
            name="timeoutSeconds"
            error={error}
            hint={`${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max}; per request`}
            type="number"
            min={TIMEOUT_SECONDS.min}
            max={TIMEOUT_SECONDS.max}
            value={draft.timeoutSeconds}
            onChange={(v) => set({ timeoutSeconds: v })}
          />
          <TextField
            label="Alert after (consecutive failures)"
            name="alertAfter"
            error={error}
            hint="2 or more rides out a single failure"
            type="number"
            min={ALERT_AFTER.min}
            max={ALERT_AFTER.max}
            value={draft.alertAfter}
            onChange={(v) => set({ alertAfter: v })}
          />
          <Field label="Location" name="locations" error={error} hint="The only region there is">
            {(props) => (
              <select {...props} value="default" disabled>
                <option value="default">Default</option>
              </select>
            )}
          </Field>
        </div>
        <ChannelPicker
          projectId={projectId}
          legend="Notify via"
          selected={draft.channelIds}
          onChange={(channelIds) => set({ channelIds })}
          error={error}
        />
      </section>
      <h2 className="mon-steps-title">
        {flow ? `Steps (${draft.steps.length} of ${MAX_STEPS})` : "Request"}
        <span className="muted small">
          {" "}
          · {totalAssertions} of {MAX_ASSERTIONS} assertions
        </span>
      </h2>
      {fieldMessage(error, "steps", true) && (
        <p className="field-error" role="alert">
          {fieldMessage(error, "steps", true)}
        </p>
      )}
      {draft.steps.map((step, index) => (
        <StepEditor
          key={step.key}
          step={step}
          index={index}
          count={draft.steps.length}
          flow={flow}
          variables={variablesBefore(draft, index)}
          unknown={unknownPlaceholders(draft, index)}
          totalAssertions={totalAssertions}
          error={error}
          onChange={(next) =>
            setDraft((d) => ({ ...d, steps: d.steps.map((s, i) => (i === index ? next : s)) }))
          }
          onMove={(by) => restructure(move(draft.steps, index, by))}
          onRemove={() => restructure(draft.steps.filter((_, i) => i !== index))}
        />
      ))}
      {flow && (
        <button
          type="button"
          className="button"
          disabled={draft.steps.length >= MAX_STEPS}
          onClick={() => set({ steps: [...draft.steps, newStep()] })}
        >
          Add step
        </button>
      )}
      {error && <SaveProblem error={error} />}
      <div className="mon-form-actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : monitor ? "Save changes" : "Create monitor"}
        </button>
        <Link href={monitor ? `/${monitor.id}` : "/"} className="button">
          Cancel
        </Link>
      </div>
    </form>
  );
}

/**
 * Why the save failed, without repeating what the fields say: each field's message is beside
 * its input, so here they are only named. A problem that names no field is shown whole.
 */
function SaveProblem({ error }: { error: unknown }) {
  const fields = error instanceof ApiError ? (error.problem.errors ?? []).map((e) => e.field) : [];
  if (fields.length === 0)
    return <ProblemMessage error={error} title="The monitor was not saved" />;
  return (
    <div className="problem" role="alert">
      <strong>The monitor was not saved</strong>
      <p>
        {fields.length === 1
          ? "One field needs a change; its message is beside it: "
          : `${fields.length} fields need a change; each message is beside its field: `}
        {fields.map((field, i) => (
          <span key={field}>
            {i > 0 && ", "}
            <code>{field}</code>
          </span>
        ))}
      </p>
    </div>
  );
}

/** The server's message for exactly this field (or, with `exact`, not one of its children). */
function fieldMessage(error: unknown, field: string, exact = false): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.problem.errors?.find(
    (e) => e.field === field || (!exact && e.field.startsWith(`${field}.`)),
  )?.message;
}
