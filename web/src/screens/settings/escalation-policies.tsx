import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ChannelView } from "../../../../src/contracts/channels";
import type { EscalationPolicyView } from "../../../../src/contracts/escalation";
import { api, projectApi } from "../../api/client";
import { canWrite } from "../../api/session";
import { ConfirmButton } from "../../components/confirm-button";
import { DataTable } from "../../components/data-table";
import {
  escalationPoliciesKey,
  policySummary,
  useEscalationPolicies,
} from "../../components/escalation-picker";
import { Empty, FormProblem, ProblemMessage, QueryView } from "../../components/feedback";
import { useProject } from "../project-context";
import { fetchChannels, keys } from "./api";
import {
  draftOfPolicy,
  emptyPolicyDraft,
  PolicyFields,
  policyFields,
  policyInput,
} from "./escalation-form";
import { submitWith, useDeleteItem, useListWrite } from "./list-write";
import "./escalation.css";
import { AddButton, SettingsSection } from "./section";

/** The project's escalation policies (docs/escalation.md): list, create, edit, delete. */
export function EscalationTab() {
  const { projectId, role } = useProject();
  const write = canWrite(role);
  const policies = useEscalationPolicies(projectId);
  const channels = useQuery({
    queryKey: keys.channels(projectId),
    queryFn: () => fetchChannels(projectId),
  });
  // "new", a policy's id being edited, or nothing.
  const [editing, setEditing] = useState<string | null>(null);
  const channelList = channels.data?.data ?? [];
  const edited = policies.data?.find((p) => p.id === editing);
  return (
    <SettingsSection
      id="escalation-title"
      title="Escalation policies"
      intro="Attached to a monitor or an alert rule, a policy notifies more channels, step by step, until its incident is acknowledged or resolved."
      actions={
        write &&
        editing === null && <AddButton label="Add policy" onClick={() => setEditing("new")} />
      }
      readOnly={!write && "Viewers can see escalation policies, not change them."}
    >
      {write && (editing === "new" || edited) && (
        <PolicyForm
          key={editing ?? ""}
          policy={edited}
          channels={channelList}
          onDone={() => setEditing(null)}
        />
      )}
      <QueryView
        query={policies}
        isEmpty={(list) => list.length === 0}
        empty={
          <Empty title="No escalation policies yet">
            {write ? "Add one, then choose it in a monitor or an alert rule." : null}
          </Empty>
        }
      >
        {(list) => (
          <PolicyTable
            policies={list}
            channels={channelList}
            write={write}
            onEdit={(id) => setEditing(id)}
          />
        )}
      </QueryView>
    </SettingsSection>
  );
}

/** "at once: Ops email · +15 min: Lead, Slack". */
function stepsText(policy: EscalationPolicyView, channels: ChannelView[]): string {
  const name = (id: string) => channels.find((c) => c.id === id)?.name ?? id;
  return policy.steps
    .map(
      (s, i) =>
        `${s.delayMinutes === 0 ? (i === 0 ? "at once" : "then") : `+${s.delayMinutes} min`}: ${s.channelIds.map(name).join(", ")}`,
    )
    .join(" · ");
}

function usedByText(policy: EscalationPolicyView): string {
  const { monitors, alertRules } = policy.usedBy;
  return [...monitors.map((m) => m.name), ...alertRules.map((r) => `${r.name} (alert)`)].join(", ");
}

function PolicyTable({
  policies,
  channels,
  write,
  onEdit,
}: {
  policies: EscalationPolicyView[];
  channels: ChannelView[];
  write: boolean;
  onEdit: (id: string) => void;
}) {
  return (
    <DataTable
      columns={["Name", "Steps", "Used by", { label: "Actions", hidden: true }]}
      caption="Escalation policies"
    >
      {policies.map((policy) => (
        <tr key={policy.id} data-policy-id={policy.id}>
          <td>
            <strong>{policy.name}</strong>
            <div className="muted small">{policySummary(policy)}</div>
          </td>
          <td className="settings-summary">{stepsText(policy, channels)}</td>
          <td>{usedByText(policy) || <span className="muted">—</span>}</td>
          <td className="settings-actions">
            {write && <PolicyActions policy={policy} onEdit={() => onEdit(policy.id)} />}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function PolicyActions({ policy, onEdit }: { policy: EscalationPolicyView; onEdit: () => void }) {
  const { projectId } = useProject();
  const path = projectApi(projectId, `/escalation-policies/${encodeURIComponent(policy.id)}`);
  const remove = useDeleteItem(path, escalationPoliciesKey(projectId));
  return (
    <div className="settings-action-group">
      <div className="settings-buttons">
        <button
          type="button"
          className="button small"
          onClick={onEdit}
          aria-label={`Edit ${policy.name}`}
        >
          Edit
        </button>
        <ConfirmButton
          label="Delete"
          question="Incidents already escalating keep their copy of it."
          confirmLabel="Delete policy"
          accessibleName={`Delete policy ${policy.name}`}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      {remove.error ? <ProblemMessage error={remove.error} /> : null}
    </div>
  );
}

function PolicyForm({
  policy,
  channels,
  onDone,
}: {
  policy: EscalationPolicyView | undefined;
  channels: ChannelView[];
  onDone: () => void;
}) {
  const { projectId } = useProject();
  const [draft, setDraft] = useState(() => (policy ? draftOfPolicy(policy) : emptyPolicyDraft()));
  const path = projectApi(
    projectId,
    `/escalation-policies${policy ? `/${encodeURIComponent(policy.id)}` : ""}`,
  );
  const save = useListWrite(
    () =>
      api<EscalationPolicyView>(path, {
        method: policy ? "PATCH" : "POST",
        body: policyInput(draft),
      }),
    escalationPoliciesKey(projectId),
    onDone,
  );
  const title = policy ? `Edit ${policy.name}` : "Add an escalation policy";
  return (
    <form className="card form escalation-form" onSubmit={submitWith(save)} aria-label={title}>
      <h3>{title}</h3>
      <PolicyFields draft={draft} onChange={setDraft} channels={channels} error={save.error} />
      <FormProblem error={save.error} fields={policyFields(draft)} />
      <div className="settings-buttons">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : policy ? "Save policy" : "Add policy"}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
