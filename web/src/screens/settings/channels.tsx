import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import type { ChannelView } from "../../../../src/contracts/channels";
import { api, projectApi } from "../../api/client";
import { canWrite } from "../../api/session";
import { DataTable } from "../../components/data-table";
import { Empty, FormProblem, Loading, ProblemMessage, QueryView } from "../../components/feedback";
import { RelativeTime } from "../../components/relative-time";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { useProject } from "../project-context";
import { type ChannelTypeInfo, fetchChannels, fetchChannelTypes, keys } from "./api";
import { ChannelActions } from "./channel-actions";
import { initialValues, SettingsFields, settingsOf, settingsSummary } from "./channel-form";
import { submitWith, useListWrite } from "./list-write";
import { AddButton, SettingsSection } from "./section";

export const useChannelTypes = () =>
  useQuery({ queryKey: keys.channelTypes, queryFn: fetchChannelTypes, staleTime: 600_000 });

/** The project's notification channels: list, create per type, test and delete. */
export function ChannelsTab() {
  const { projectId, role } = useProject();
  const write = canWrite(role);
  const channels = useQuery({
    queryKey: keys.channels(projectId),
    queryFn: () => fetchChannels(projectId),
  });
  const types = useChannelTypes();
  const [adding, setAdding] = useState(false);
  return (
    <SettingsSection
      id="channels-title"
      title="Notification channels"
      intro="Monitors and alert rules notify these channels when something goes down, fires or recovers."
      actions={
        write && !adding && <AddButton label="Add channel" onClick={() => setAdding(true)} />
      }
      readOnly={!write && "Viewers can see channels, not change them."}
    >
      {write &&
        adding &&
        (types.isPending ? (
          <Loading label="Loading channel types…" />
        ) : types.isError ? (
          <ProblemMessage error={types.error} />
        ) : (
          <CreateChannelForm types={types.data} onDone={() => setAdding(false)} />
        ))}
      <QueryView
        query={channels}
        isEmpty={(page) => page.data.length === 0}
        empty={
          <Empty title="No notification channels yet">
            {write ? "Add one, then choose it in a monitor or an alert rule." : null}
          </Empty>
        }
      >
        {(page) => <ChannelTable channels={page.data} types={types.data ?? []} write={write} />}
      </QueryView>
    </SettingsSection>
  );
}

function ChannelTable({
  channels,
  types,
  write,
}: {
  channels: ChannelView[];
  types: ChannelTypeInfo[];
  write: boolean;
}) {
  const label = (type: string) => types.find((t) => t.type === type)?.label ?? type;
  return (
    <DataTable
      columns={["Name", "Type", "Settings", "Updated", { label: "Actions", hidden: true }]}
      caption="Notification channels"
    >
      {channels.map((channel) => (
        <tr key={channel.id} data-channel-id={channel.id}>
          <td>
            <Link href={`/channels/${encodeURIComponent(channel.id)}`}>{channel.name}</Link>
          </td>
          <td>{label(channel.type)}</td>
          <td className="settings-summary">
            {settingsSummary(channel) || <span className="muted">—</span>}
          </td>
          <td>
            <RelativeTime at={channel.updatedAt} />
          </td>
          <td className="settings-actions">
            <Link
              className="button small"
              href={`/channels/${encodeURIComponent(channel.id)}`}
              aria-label={`${write ? "Edit" : "Open"} ${channel.name}`}
            >
              {write ? "Edit" : "Open"}
            </Link>
            {write && <ChannelActions channel={channel} />}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function CreateChannelForm({ types, onDone }: { types: ChannelTypeInfo[]; onDone: () => void }) {
  const { projectId } = useProject();
  const first = types.find((t) => t.available) ?? types[0];
  const [name, setName] = useState("");
  const [typeName, setTypeName] = useState(first?.type ?? "");
  const type = types.find((t) => t.type === typeName);
  const [values, setValues] = useState(() => (first ? initialValues(first) : {}));
  const create = useListWrite(
    () =>
      api<ChannelView>(projectApi(projectId, "/channels"), {
        method: "POST",
        body: { name, type: typeName, settings: type ? settingsOf(type, values, false) : {} },
      }),
    keys.channels(projectId),
    onDone,
  );
  const settingFields = Object.keys(type?.settings.properties ?? {}).map((k) => `settings.${k}`);
  return (
    <form
      className="card form"
      onSubmit={submitWith(create)}
      aria-label="Add a notification channel"
    >
      <h3>Add a notification channel</h3>
      <TextField
        label="Channel name"
        name="name"
        error={create.error}
        value={name}
        onChange={setName}
        required
        maxLength={100}
      />
      <Field
        label="Type"
        name="type"
        error={create.error}
        {...(type ? { hint: type.unavailableReason ?? type.description } : {})}
      >
        {(props) => (
          <select
            {...props}
            value={typeName}
            onChange={(e) => {
              const next = types.find((t) => t.type === e.target.value);
              setTypeName(e.target.value);
              if (next) setValues(initialValues(next));
              create.reset();
            }}
          >
            {types.map((t) => (
              <option key={t.type} value={t.type} disabled={!t.available}>
                {t.label}
                {t.available ? "" : " (not available on this server)"}
              </option>
            ))}
          </select>
        )}
      </Field>
      {type && (
        <SettingsFields type={type} values={values} onChange={setValues} error={create.error} />
      )}
      <FormProblem error={create.error} fields={["name", "type", ...settingFields]} />
      <div className="settings-buttons">
        <button
          type="submit"
          className="button primary"
          disabled={create.isPending || !type?.available}
        >
          {create.isPending ? "Saving…" : "Add channel"}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
