import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { api, projectApi } from "../../api/client";
import { canWrite } from "../../api/session";
import { Empty, Loading, ProblemMessage, QueryView } from "../../components/feedback";
import { Field, KeyValues, StateBadge } from "../../components/ui";
import { formatRelative, formatTime } from "../../lib/format";
import { useProject } from "../project-context";
import { type Channel, type ChannelType, fetchChannelDeliveries, keys } from "./api";
import { ChannelActions } from "./channel-actions";
import { initialValues, SettingsFields, settingsOf, settingsSummary } from "./channel-form";
import { useChannelTypes } from "./channels";
import { FormError } from "./confirm";

/** One channel: its settings (editable by members and above), actions and delivery log. */
export function ChannelDetail({ channelId }: { channelId: string }) {
  const { projectId, role } = useProject();
  const channel = useQuery({
    queryKey: [...keys.channels(projectId), channelId],
    queryFn: () =>
      api<Channel>(projectApi(projectId, `/channels/${encodeURIComponent(channelId)}`)),
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
              <div className="settings-section-header">
                <div>
                  <h2 id="channel-title">{c.name}</h2>
                  <span className="muted">{type?.label ?? c.type} channel</span>
                </div>
                {write && <ChannelActions channel={c} afterDelete="/channels" />}
              </div>
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

function EditChannelForm({ channel, type }: { channel: Channel; type: ChannelType }) {
  const { projectId } = useProject();
  const client = useQueryClient();
  const [name, setName] = useState(channel.name);
  const [values, setValues] = useState(() => initialValues(type, channel));
  const save = useMutation({
    mutationFn: () =>
      api<Channel>(projectApi(projectId, `/channels/${encodeURIComponent(channel.id)}`), {
        method: "PATCH",
        body: { name, settings: settingsOf(type, values, true) },
      }),
    onSuccess: async (saved) => {
      // A secret just sent is not kept in the form: it shows masked, like any stored one.
      setName(saved.name);
      setValues(initialValues(type, saved));
      await client.invalidateQueries({ queryKey: keys.channels(projectId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const settingFields = Object.keys(type.settings.properties ?? {}).map((k) => `settings.${k}`);
  return (
    <form className="card form" onSubmit={submit} aria-label="Edit the channel">
      <h3>Edit</h3>
      <Field label="Channel name" name="name" error={save.error}>
        {(props) => (
          <input
            {...props}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={100}
          />
        )}
      </Field>
      <SettingsFields
        type={type}
        values={values}
        onChange={setValues}
        error={save.error}
        channel={channel}
      />
      <FormError error={save.error} fields={["name", ...settingFields]} />
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
          <div className="table-scroll">
            <table className="data">
              <caption className="visually-hidden">Channel deliveries</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Attempts
                  </th>
                  <th scope="col">Sent</th>
                  <th scope="col">Last error</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((d) => (
                  <tr key={d.id}>
                    <td title={formatTime(d.createdAt)}>{formatRelative(d.createdAt)}</td>
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
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </section>
  );
}
