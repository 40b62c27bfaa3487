import { useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { Link } from "wouter";
import type {
  UpdateWebhookEndpointInput,
  WebhookDeliveryRecordView,
  WebhookEndpointView,
} from "../../../../src/contracts/webhooks";
import { api } from "../../api/client";
import { canWrite } from "../../api/session";
import { DataTable } from "../../components/data-table";
import { Empty, FormProblem, Loading, ProblemMessage, QueryView } from "../../components/feedback";
import { RelativeTime } from "../../components/relative-time";
import { TextField } from "../../components/text-field";
import { KeyValues, StateBadge } from "../../components/ui";
import { formatDuration, formatRelative, formatTime } from "../../lib/format";
import { useProject } from "../project-context";
import { fetchDeliveries, fetchEndpoints, keys, webhookPath } from "./api";
import { submitWith, useListWrite } from "./list-write";
import { SectionHeader } from "./section";
import { EndpointActions } from "./webhook-actions";
import { EventChips, EventPicker } from "./webhooks";

/** One endpoint: its settings, actions and the delivery log with each attempt's bodies. */
export function WebhookDetail({ endpointId }: { endpointId: string }) {
  const { projectId, role } = useProject();
  const list = useQuery({
    queryKey: keys.endpoints(projectId),
    queryFn: () => fetchEndpoints(projectId),
  });
  if (list.isPending) return <Loading />;
  if (list.isError) return <ProblemMessage error={list.error} />;
  const endpoint = list.data.data.find((e) => e.id === endpointId);
  return (
    <section aria-labelledby="endpoint-title">
      <p>
        <Link href="/webhooks">← All endpoints</Link>
      </p>
      {endpoint ? (
        <EndpointView endpoint={endpoint} write={canWrite(role)} />
      ) : (
        <Empty title="Endpoint not found">It was deleted, or belongs to another project.</Empty>
      )}
    </section>
  );
}

function EndpointView({ endpoint, write }: { endpoint: WebhookEndpointView; write: boolean }) {
  const [editing, setEditing] = useState(false);
  const [editingUrl, setEditingUrl] = useState(false);
  return (
    <>
      <SectionHeader
        id="endpoint-title"
        title={endpoint.url}
        titleClassName="settings-url"
        intro={<StateBadge state={endpoint.status} />}
        actions={write && <EndpointActions endpoint={endpoint} afterDelete="/webhooks" />}
      />
      <div className="card">
        <KeyValues
          entries={[
            ["Endpoint id", endpoint.id],
            ["Created", formatTime(endpoint.createdAt)],
            ["Updated", formatTime(endpoint.updatedAt)],
          ]}
        />
        <h3 className="settings-subtitle">URL</h3>
        {editingUrl ? (
          <EditUrl endpoint={endpoint} onDone={() => setEditingUrl(false)} />
        ) : (
          <div className="settings-buttons">
            <code className="settings-url">{endpoint.url}</code>
            {write && (
              <button type="button" className="button small" onClick={() => setEditingUrl(true)}>
                Change URL
              </button>
            )}
          </div>
        )}
        <h3 className="settings-subtitle">Events</h3>
        {editing ? (
          <EditEvents endpoint={endpoint} onDone={() => setEditing(false)} />
        ) : (
          <div className="settings-buttons">
            <EventChips events={endpoint.events} />
            {write && (
              <button type="button" className="button small" onClick={() => setEditing(true)}>
                Change events
              </button>
            )}
          </div>
        )}
      </div>
      <DeliveryLog endpointId={endpoint.id} />
    </>
  );
}

/** A change of the endpoint (PATCH with what `change` gives), then the list asked again. */
function usePatchEndpoint(
  endpoint: WebhookEndpointView,
  change: () => Pick<UpdateWebhookEndpointInput, "url" | "events">,
  onDone: () => void,
) {
  const { projectId } = useProject();
  return useListWrite(
    () =>
      api<WebhookEndpointView>(webhookPath(projectId, `/${encodeURIComponent(endpoint.id)}`), {
        method: "PATCH",
        body: change(),
      }),
    keys.endpoints(projectId),
    onDone,
  );
}

/**
 * A new URL is verified before it is saved (spec): the server POSTs endpoint.verify to it and
 * keeps the old URL unless it answers 2xx within 8 s; the problem says why it did not.
 */
function EditUrl({ endpoint, onDone }: { endpoint: WebhookEndpointView; onDone: () => void }) {
  const [url, setUrl] = useState(endpoint.url);
  const save = usePatchEndpoint(endpoint, () => ({ url }), onDone);
  return (
    <form onSubmit={submitWith(save)} aria-label="Change the endpoint's URL">
      <TextField
        label="New URL"
        name="url"
        type="url"
        error={save.error}
        hint="Vigil sends it an endpoint.verify request first; the URL changes only if it answers 2xx within 8 s."
        value={url}
        onChange={setUrl}
        required
        maxLength={2048}
      />
      <FormProblem error={save.error} fields={["url"]} />
      <div className="settings-buttons">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? "Verifying…" : "Verify and save"}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function EditEvents({ endpoint, onDone }: { endpoint: WebhookEndpointView; onDone: () => void }) {
  const [events, setEvents] = useState(endpoint.events);
  const save = usePatchEndpoint(endpoint, () => ({ events }), onDone);
  return (
    <form onSubmit={submitWith(save)} aria-label="Change the endpoint's events">
      <EventPicker value={events} onChange={setEvents} error={save.error} />
      <FormProblem error={save.error} fields={["events"]} />
      <div className="settings-buttons">
        <button type="submit" className="button primary" disabled={save.isPending}>
          Save events
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const { projectId } = useProject();
  const log = useQuery({
    queryKey: keys.deliveries(projectId, endpointId),
    queryFn: () => fetchDeliveries(projectId, endpointId),
    // Retries land 60 s after a failure: keep the log current while it is open.
    refetchInterval: 10_000,
  });
  return (
    <section aria-labelledby="delivery-log-title" className="settings-log">
      <div className="settings-section-header">
        <h3 id="delivery-log-title">Delivery log</h3>
        <button
          type="button"
          className="button small"
          onClick={() => log.refetch()}
          disabled={log.isFetching}
        >
          {log.isFetching ? "Refreshing…" : "Refresh"}
        </button>
      </div>
      <p className="muted small">
        The last 50 attempts, newest first. Each shows the body sent and the first 500 characters of
        the answer.
      </p>
      <QueryView
        query={log}
        isEmpty={(page) => page.data.length === 0}
        empty={<Empty title="No deliveries yet">Send a test event to see one here.</Empty>}
      >
        {(page) => <DeliveryTable records={page.data} />}
      </QueryView>
    </section>
  );
}

function DeliveryTable({ records }: { records: WebhookDeliveryRecordView[] }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <DataTable
      columns={[
        "Time",
        "Event",
        { label: "Attempt", num: true },
        "Result",
        { label: "Response", num: true },
        { label: "Duration", num: true },
        { label: "Details", hidden: true },
      ]}
      caption="Delivery attempts"
      className="settings-deliveries"
    >
      {records.map((record) => {
        const expanded = open.has(record.id);
        const detailsId = `delivery-${record.id}`;
        return (
          <Fragment key={record.id}>
            <tr data-delivery-id={record.id}>
              <td>
                <RelativeTime at={record.attemptedAt} />
              </td>
              <td>
                <code>{record.event}</code>
              </td>
              <td className="num">{record.attempt}</td>
              <td>
                <StateBadge
                  state={record.success ? "delivered" : "failed"}
                  tone={record.success ? "ok" : "bad"}
                />
                {record.retryAt && (
                  <small className="muted"> retry {formatRelative(record.retryAt)}</small>
                )}
              </td>
              <td className="num">{record.status === 0 ? "—" : record.status}</td>
              <td className="num">{formatDuration(record.durationMs)}</td>
              <td>
                <button
                  type="button"
                  className="button small"
                  aria-expanded={expanded}
                  aria-controls={detailsId}
                  onClick={() => toggle(record.id)}
                >
                  {expanded ? "Hide bodies" : "Show bodies"}
                </button>
              </td>
            </tr>
            {expanded && (
              <tr id={detailsId} className="settings-delivery-details">
                <td colSpan={7}>
                  <DeliveryBodies record={record} />
                </td>
              </tr>
            )}
          </Fragment>
        );
      })}
    </DataTable>
  );
}

/** Pretty-prints JSON, or gives the text back as it is. */
const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

function DeliveryBodies({ record }: { record: WebhookDeliveryRecordView }) {
  return (
    <div className="split">
      <div>
        <h4>Request body</h4>
        <p className="muted small">
          Message <code>{record.messageId}</code> · {formatTime(record.attemptedAt)}
        </p>
        <pre>{pretty(record.request)}</pre>
      </div>
      <div>
        <h4>
          Response{" "}
          {record.status === 0 ? (
            "(no answer)"
          ) : (
            <span className="muted">HTTP {record.status}</span>
          )}
        </h4>
        <p className="muted small">
          {record.retryAt ? `Attempt 2 is due ${formatTime(record.retryAt)}.` : "\u00a0"}
        </p>
        <pre>{record.body === "" ? "(empty body)" : record.body}</pre>
      </div>
    </div>
  );
}
