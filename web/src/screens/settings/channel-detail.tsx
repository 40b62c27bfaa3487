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
import { KeyValues, StateBadge } from "../../components/ui";
import { formatTime } from "../../lib/format";
import { useProject } from "../project-context";
import { type ChannelTypeInfo, fetchChannelDeliveries, keys } from "./api";
import { ChannelActions } from "./channel-actions";
import { initialValues, SettingsFields, settingsOf, settingsSummary } from "./channel-form";
import { useChannelTypes } from "./channels";
import { submitWith, useListWrite } from "./list-write";
import { SectionHeader } from "./section";

/** One channel: its settings (editable by members and above), actions and delivery log. */
export function ChannelDetail({ channelId }: { channelId: string }) {
  const { projectId, role } = useProject();
  const channel = useQuery({
    queryKey: [...keys.channels(projectId), channelId],
    queryFn: () =>
      api<ChannelView>(projectApi(projectId, `/channels/${encodeURIComponent(channelId)}`)),
  });
  const types = useChannelTypes();
  const write = canWrite(role);
  return (
    <section aria-labelledby="channel-title">
      <p>
        <Link href="/channels">← All channels</Link>
      </p>
      <QueryView query={channel}>
        {(c) => {
          const type = types.data?.find((t) => t.type === c.type);
          return (
            <>
              <SectionHeader
                id="channel-title"
                title={c.name}
                intro={<span className="muted">{type?.label ?? c.type} channel</span>}
                actions={write && <ChannelActions channel={c} afterDelete="/channels" />}
              />
              <div className="card">
                <KeyValues
                  entries={[
                    ["Channel id", c.id],
                    ["Settings", settingsSummary(c) || "—"],
                    ["Created", formatTime(c.createdAt)],
                    ["Updated", formatTime(c.updatedAt)],
                  ]}
                />
              </div>
              {write &&
                (types.isPending ? (
                  <Loading />
                ) : types.isError ? (
                  <ProblemMessage error={types.error} />
                ) : type ? (
                  <EditChannelForm key={c.id} channel={c} type={type} />
                ) : null)}
              <ChannelDeliveries channelId={c.id} />
            </>
          );
        }}
      </QueryView>
    </section>
  );
}

function EditChannelForm({ channel, type }: { channel: ChannelView; type: ChannelTypeInfo }) {
  const { projectId } = useProject();
  const [name, setName] = useState(channel.name);
  const [values, setValues] = useState(() => initialValues(type, channel));
  const save = useListWrite(
    () =>
      api<ChannelView>(projectApi(projectId, `/channels/${encodeURIComponent(channel.id)}`), {
        method: "PATCH",
        body: { name, settings: settingsOf(type, values, true) },
      }),
    keys.channels(projectId),
    (saved) => {
      // A secret just sent is not kept in the form: it shows masked, like any stored one.
      setName(saved.name);
      setValues(initialValues(type, saved));
    },
  );
  const settingFields = Object.keys(type.settings.properties ?? {}).map((k) => `settings.${k}`);
  return (
    <form className="card form" onSubmit={submitWith(save)} aria-label="Edit the channel">
      <h3>Edit</h3>
      <TextField
        label="Channel name"
        name="name"
        error={save.error}
        value={name}
        onChange={setName}
        required
        maxLength={100}
      />
      <SettingsFields
        type={type}
        values={values}
        onChange={setValues}
        error={save.error}
        channel={channel}
      />
      <FormProblem error={save.error} fields={["name", ...settingFields]} />
      <div className="settings-buttons">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save changes"}
        </button>
        {save.isSuccess && (
          <span role="status" className="muted">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}

function ChannelDeliveries({ channelId }: { channelId: string }) {
  const { projectId } = useProject();
  const log = useQuery({
    queryKey: keys.channelDeliveries(projectId, channelId),
    queryFn: () => fetchChannelDeliveries(projectId, channelId),
    refetchInterval: 15_000,
  });
  return (
    <section aria-labelledby="channel-log-title">
      <h3 id="channel-log-title">Delivery log</h3>
      <p className="muted small">The channel's last 50 notifications, newest first.</p>
      <QueryView
        query={log}
        isEmpty={(page) => page.data.length === 0}
        empty={<Empty title="Nothing sent yet">Send a test notification to see one here.</Empty>}
      >
        {(page) => (
          <DataTable
            columns={[
              "Created",
              "Event",
              "Status",
              { label: "Attempts", num: true },
              "Sent",
              "Last error",
            ]}
            caption="Channel deliveries"
          >
            {page.data.map((d) => (
              <tr key={d.id}>
                <td>
                  <RelativeTime at={d.createdAt} />
                </td>
                <td>
                  <code>{d.event}</code>
                </td>
                <td>
                  <StateBadge state={d.status} tone={d.status === "sent" ? "ok" : undefined} />
                </td>
                <td className="num">{d.attempts}</td>
                <td>{d.sentAt ? formatTime(d.sentAt) : "—"}</td>
                <td className="settings-summary">{d.lastError ?? "—"}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
    </section>
  );
}
