import { Link } from "wouter";
import { ApiError } from "../../api/client";
import { QueryView } from "../../components/feedback";
import { FieldGroup, toggled } from "../../components/field-group";
import { projectPath } from "../../lib/project-path";
import { useChannels } from "./api";

/**
 * The project's notification channels as checkboxes (monitors and alert rules notify the ones
 * checked); the server's messages about `channelIds` show under them and on the channel named.
 */
export function ChannelPicker({
  projectId,
  legend,
  selected,
  onChange,
  error,
}: {
  projectId: string;
  legend: string;
  selected: readonly string[];
  onChange: (channelIds: string[]) => void;
  error: unknown;
}) {
  const channels = useChannels(projectId);
  // The server names a refused channel by its place in `channelIds`.
  const invalid = (id: string) =>
    error instanceof ApiError &&
    error.fieldError(`channelIds.${selected.indexOf(id)}`) !== undefined;
  return (
    <FieldGroup legend={legend} name="channelIds" error={error} className="channel-picker">
      <QueryView
        query={channels}
        isEmpty={(list) => list.length === 0}
        empty={
          <p className="muted small">
            No notification channels yet.{" "}
            <Link href={`~${projectPath(projectId, "settings", "channels")}`}>
              Create one in Settings
            </Link>
          </p>
        }
      >
        {(list) =>
          list.map((channel) => (
            <label key={channel.id} className="inline-field">
              <input
                type="checkbox"
                checked={selected.includes(channel.id)}
                onChange={(e) => onChange(toggled(selected, channel.id, e.target.checked))}
                aria-invalid={(selected.includes(channel.id) && invalid(channel.id)) || undefined}
              />
              {channel.name} <span className="muted small">({channel.type})</span>
            </label>
          ))
        }
      </QueryView>
    </FieldGroup>
  );
}
