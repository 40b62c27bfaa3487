import { type FormEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import {
  ALERT_AFTER,
  COMING_SOON_TYPES,
  canChangeType,
  FREQUENCY_NAMES,
  type Frequency,
  MONITOR_TYPES,
  type MonitorType,
  TIMEOUT_SECONDS,
} from "../../../../src/contracts/monitor-catalog";
import type { MonitorView } from "../../../../src/contracts/monitors";
import { ApiError } from "../../api/client";
import { canWrite } from "../../api/session";
import { EscalationPicker } from "../../components/escalation-picker";
import { Empty, ProblemMessage, QueryView } from "../../components/feedback";
import { TextField } from "../../components/text-field";
import { Field, PageHeader } from "../../components/ui";
import { useProject } from "../project-context";
import { useMonitor, useSaveMonitor } from "./api";
import { ChannelPicker } from "./channel-picker";
import type { Draft } from "./draft";
import { emptyDraft, fromMonitor, toInput } from "./kind-drafts";
import { MONITOR_KINDS } from "./kinds";
import { frequencyLabel } from "./state";

const COMING_SOON_LABELS: Record<(typeof COMING_SOON_TYPES)[number], string> = {
  browser: "Browser check",
  e2e: "E2E journey",
};

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
  const kind = MONITOR_KINDS[draft.type];
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
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
          <Field label="Type" name="type" error={error} hint={kind.hint}>
            {(props) => (
              <select
                {...props}
                value={draft.type}
                onChange={(e) => {
                  // Another kind's fields: the last save's messages were about this one's.
                  save.reset();
                  set({ type: e.target.value as MonitorType });
                }}
              >
                {MONITOR_TYPES.map((type) => (
                  <option
                    key={type}
                    value={type}
                    disabled={
                      MONITOR_KINDS[type].unavailable?.(draft) ||
                      // A saved monitor keeps its kind (api and flow may trade places).
                      (monitor !== undefined && !canChangeType(monitor.type, type))
                    }
                  >
                    {MONITOR_KINDS[type].option}
                  </option>
                ))}
                {COMING_SOON_TYPES.map((type) => (
                  <option key={type} value={type} disabled>
                    {COMING_SOON_LABELS[type]} (coming soon)
                  </option>
                ))}
              </select>
            )}
          </Field>
          {kind.scheduled && (
            <>
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
            </>
          )}
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
        <EscalationPicker
          projectId={projectId}
          value={draft.escalationPolicyId}
          onChange={(escalationPolicyId) => set({ escalationPolicyId })}
          error={error}
        />
      </section>
      <kind.Fields
        draft={draft}
        update={setDraft}
        error={error}
        resetError={save.reset}
        monitor={monitor}
      />
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
