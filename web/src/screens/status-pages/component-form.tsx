import { type FormEvent, useState } from "react";
import {
  MAX_SOURCES_PER_COMPONENT,
  type StatusPageComponentView,
  type StatusPageGroupView,
} from "../../../../src/contracts/status-pages";
import { FormProblem, Loading, ProblemMessage } from "../../components/feedback";
import { FieldGroup, toggled } from "../../components/field-group";
import { TextField } from "../../components/text-field";
import { Field, StateBadge } from "../../components/ui";
import { type ComponentInput, type SourceOption, useOrgSources } from "./api";

const FIELDS = [
  "name",
  "description",
  "groupId",
  "monitorIds",
  "alertRuleIds",
  "publishIncidents",
] as const;

/**
 * A component's name, description, group and sources: monitors and alert rules of any project
 * of the organization, picked from lists grouped by project.
 */
export function ComponentForm({
  orgId,
  groups,
  component,
  pending,
  error,
  onSubmit,
}: {
  orgId: string;
  groups: readonly StatusPageGroupView[];
  /** The component edited; a new one when undefined. */
  component?: StatusPageComponentView | undefined;
  pending: boolean;
  error: unknown;
  onSubmit: (input: ComponentInput) => void;
}) {
  const [input, setInput] = useState<ComponentInput>({
    name: component?.name ?? "",
    description: component?.description ?? "",
    groupId: component?.groupId ?? null,
    monitorIds: component?.monitors.map((m) => m.id) ?? [],
    alertRuleIds: component?.alertRules.map((r) => r.id) ?? [],
    publishIncidents: component?.publishIncidents ?? true,
  });
  const set = (change: Partial<ComponentInput>) => setInput((i) => ({ ...i, ...change }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(input);
  };
  const total = input.monitorIds.length + input.alertRuleIds.length;
  return (
    <form
      className="form"
      onSubmit={submit}
      aria-label={component ? `Edit component ${component.name}` : "Add a component"}
    >
      <TextField
        label="Name"
        name="name"
        error={error}
        hint="What your users call it: Checkout, API"
        value={input.name}
        required
        maxLength={100}
        onChange={(v) => set({ name: v })}
      />
      <Field label="Description" name="description" error={error}>
        {(props) => (
          <textarea
            {...props}
            value={input.description}
            maxLength={1000}
            onChange={(e) => set({ description: e.target.value })}
          />
        )}
      </Field>
      <Field label="Group" name="groupId" error={error}>
        {(props) => (
          <select
            {...props}
            value={input.groupId ?? ""}
            onChange={(e) => set({ groupId: e.target.value || null })}
          >
            <option value="">No group</option>
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="muted small">
        Its state comes from its sources (all failing is an outage, some failing is degraded) and
        the incidents it shows (low or medium degrade, high or critical are an outage). {total} of{" "}
        {MAX_SOURCES_PER_COMPONENT} sources picked.
      </p>
      <label className="sp-check">
        <input
          type="checkbox"
          name="publishIncidents"
          checked={input.publishIncidents}
          onChange={(e) => set({ publishIncidents: e.target.checked })}
        />
        <span>Show its monitors' and alert rules' incidents on the public page</span>
      </label>
      <p className="muted small">
        On by default: an outage's incident shows on this component and counts by its severity. Off:
        its state comes from its sources alone. Incidents you link by hand always show.
      </p>
      <SourcePickers
        orgId={orgId}
        monitorIds={input.monitorIds}
        alertRuleIds={input.alertRuleIds}
        error={error}
        onChange={set}
      />
      <FormProblem error={error} fields={FIELDS} />
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? "Saving…" : component ? "Save component" : "Add component"}
      </button>
    </form>
  );
}

/** The organization's monitors and alert rules to pick the component's sources from. */
function SourcePickers({
  orgId,
  monitorIds,
  alertRuleIds,
  error,
  onChange,
}: {
  orgId: string;
  monitorIds: string[];
  alertRuleIds: string[];
  error: unknown;
  onChange: (
    change: Pick<ComponentInput, "monitorIds"> | Pick<ComponentInput, "alertRuleIds">,
  ) => void;
}) {
  const sources = useOrgSources(orgId);
  return (
    <>
      {sources.error && (
        <ProblemMessage error={sources.error} title="Sources could not be listed" />
      )}
      {sources.isPending ? (
        <Loading label="Loading monitors and alert rules…" />
      ) : (
        <>
          <SourcePicker
            legend="Monitors"
            name="monitorIds"
            options={sources.monitors}
            selected={monitorIds}
            error={error}
            onChange={(ids) => onChange({ monitorIds: ids })}
          />
          <SourcePicker
            legend="Alert rules"
            name="alertRuleIds"
            options={sources.rules}
            selected={alertRuleIds}
            error={error}
            onChange={(ids) => onChange({ alertRuleIds: ids })}
          />
        </>
      )}
    </>
  );
}

/** Checkboxes of one kind of source, grouped by project, filterable when the list is long. */
function SourcePicker({
  legend,
  name,
  options,
  selected,
  error,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly SourceOption[];
  selected: readonly string[];
  error: unknown;
  onChange: (ids: string[]) => void;
}) {
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const shown = options.filter(
    (o) => !needle || o.name.toLowerCase().includes(needle) || selected.includes(o.id),
  );
  const projects = [...new Set(shown.map((o) => o.projectName))];
  const toggle = (id: string, on: boolean) => onChange(toggled(selected, id, on));
  // Sources bound before but no longer listed (deleted, or in a project one cannot see).
  const unknown = selected.filter((id) => !options.some((o) => o.id === id));
  return (
    <FieldGroup legend={legend} name={name} error={error}>
      {options.length === 0 ? (
        <p className="muted small">None in this organization's projects.</p>
      ) : (
        <>
          {options.length > 8 && (
            <label className="inline-field small">
              <span>Filter</span>
              <input
                type="search"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                aria-label={`Filter ${legend.toLowerCase()}`}
              />
            </label>
          )}
          {projects.map((project) => (
            <div key={project} className="sp-source-project">
              <div className="muted small">{project}</div>
              {shown
                .filter((o) => o.projectName === project)
                .map((o) => (
                  <label key={o.id} className="sp-check">
                    <input
                      type="checkbox"
                      checked={selected.includes(o.id)}
                      onChange={(e) => toggle(o.id, e.target.checked)}
                    />
                    <span>{o.name}</span> <StateBadge state={o.state} />
                  </label>
                ))}
            </div>
          ))}
        </>
      )}
      {unknown.map((id) => (
        <label key={id} className="sp-check">
          <input type="checkbox" checked onChange={() => toggle(id, false)} />
          <code>{id}</code>
        </label>
      ))}
    </FieldGroup>
  );
}
