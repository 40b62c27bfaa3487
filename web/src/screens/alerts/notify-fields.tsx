import { Link } from "wouter";
import { MAX_RENOTIFY_MINUTES } from "../../../../src/alerts/catalog";
import { QueryView } from "../../components/feedback";
import { Field } from "../../components/ui";
import { useChannels } from "../monitors/api";
import { projectPath } from "../registry";
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
  const channels = useChannels(projectId);
  return (
    <section className="card">
      <h2>Notifications</h2>
      <fieldset className="alr-channels">
        <legend>Channels</legend>
        <QueryView
          query={channels}
          isEmpty={(list) => list.length === 0}
          empty={
            <p className="muted small">
              No channels yet.{" "}
              <Link href={`~${projectPath(projectId, "settings")}`}>Create one in Settings</Link>
            </p>
          }
        >
          {(list) =>
            list.map((c) => (
              <label key={c.id} className="inline-field">
                <input
                  type="checkbox"
                  checked={draft.channelIds.includes(c.id)}
                  onChange={(e) =>
                    set({
                      channelIds: e.target.checked
                        ? [...draft.channelIds, c.id]
                        : draft.channelIds.filter((id) => id !== c.id),
                    })
                  }
                />
                {c.name} <span className="muted small">({c.type})</span>
              </label>
            ))
          }
        </QueryView>
      </fieldset>
      <div className="alr-grid">
        <Field
          label="Notify again every (minutes)"
          name="renotifyMinutes"
          error={error}
          hint={`While firing; 0 = never (max ${MAX_RENOTIFY_MINUTES})`}
        >
          {(props) => (
            <input
              {...props}
              type="number"
              min={0}
              max={MAX_RENOTIFY_MINUTES}
              value={draft.renotifyMinutes}
              onChange={(e) => set({ renotifyMinutes: e.target.value })}
            />
          )}
        </Field>
        <label className="inline-field alr-check">
          <input
            type="checkbox"
            checked={draft.openIncident}
            onChange={(e) => set({ openIncident: e.target.checked })}
          />
          Open an incident when it fires
        </label>
      </div>
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
