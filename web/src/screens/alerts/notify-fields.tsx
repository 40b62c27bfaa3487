import { MAX_RENOTIFY_MINUTES } from "../../../../src/contracts/alert-catalog";
import { EscalationPicker } from "../../components/escalation-picker";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { ChannelPicker } from "../monitors/channel-picker";
import type { RuleDraft } from "./draft";

/** Where a rule notifies: channels, reminders, an incident, and the message template. */
export function NotifyFields({
  projectId,
  draft,
  set,
  error,
  labels,
}: {
  projectId: string;
  draft: RuleDraft;
  set: (change: Partial<RuleDraft>) => void;
  error: unknown;
  /** The query's label columns (from the last preview), usable as {{labels.NAME}}. */
  labels: string[];
}) {
  return (
    <section className="card">
      <h2>Notifications</h2>
      <ChannelPicker
        projectId={projectId}
        legend="Channels"
        selected={draft.channelIds}
        onChange={(channelIds) => set({ channelIds })}
        error={error}
      />
      {draft.channelIds.length === 0 && (
        <p className="alr-warning small" role="note">
          No channel chosen: the rule can be saved, but it will notify no one.
        </p>
      )}
      <div className="alr-grid">
        <TextField
          label="Notify again every (minutes)"
          name="renotifyMinutes"
          error={error}
          hint={`While firing; 0 = never (max ${MAX_RENOTIFY_MINUTES})`}
          type="number"
          min={0}
          max={MAX_RENOTIFY_MINUTES}
          value={draft.renotifyMinutes}
          onChange={(v) => set({ renotifyMinutes: v })}
        />
        <label className="inline-field alr-check">
          <input
            type="checkbox"
            checked={draft.openIncident}
            onChange={(e) => set({ openIncident: e.target.checked })}
          />
          Open an incident when it fires
        </label>
      </div>
      <EscalationPicker
        projectId={projectId}
        value={draft.escalationPolicyId}
        // Escalation runs on the rule's incident: choosing a policy opens one.
        onChange={(escalationPolicyId) =>
          set(
            escalationPolicyId
              ? { escalationPolicyId, openIncident: true }
              : { escalationPolicyId },
          )
        }
        error={error}
        {...(draft.escalationPolicyId && !draft.openIncident
          ? { hint: "Escalation needs an incident: turn on “Open an incident when it fires”" }
          : {})}
      />
      <Field
        label="Message"
        name="messageTemplate"
        error={error}
        hint={`{{value}}, {{threshold}} and {{labels.NAME}}${labels.length > 0 ? ` (labels: ${labels.join(", ")})` : ""} are filled in`}
      >
        {(props) => (
          <input
            {...props}
            className="mono"
            value={draft.messageTemplate}
            onChange={(e) => set({ messageTemplate: e.target.value })}
          />
        )}
      </Field>
    </section>
  );
}
