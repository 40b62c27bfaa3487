import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link } from "wouter";
import { ApiError, api } from "../../api/client";
import { canWrite } from "../../api/session";
import { Empty, QueryView } from "../../components/feedback";
import { Field, StateBadge } from "../../components/ui";
import { formatRelative, formatTime } from "../../lib/format";
import { useProject } from "../project-context";
import {
  type CreatedWebhookEndpoint,
  fetchEndpoints,
  fetchEventTypes,
  keys,
  type WebhookEndpoint,
  type WebhookEventType,
  webhookPath,
} from "./api";
import { FormError, SecretOnce } from "./confirm";
import { EndpointActions } from "./webhook-actions";

/** The project's webhook endpoints: list, create (the signing secret shown once), actions. */
export function WebhooksTab() {
  const { projectId, role } = useProject();
  const write = canWrite(role);
  const list = useQuery({
    queryKey: keys.endpoints(projectId),
    queryFn: () => fetchEndpoints(projectId),
  });
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [adding, setAdding] = useState(false);
  return (
    <section aria-labelledby="webhooks-title">
      <div className="settings-section-header">
        <div>
          <h2 id="webhooks-title">Webhook endpoints</h2>
          <p className="muted">
            Vigil POSTs signed JSON (Standard Webhooks) to these HTTPS URLs when the events they
            subscribe to happen. Each attempt is logged; a failed one is retried once after 60 s.
          </p>
        </div>
        {write && !adding && (
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            Add endpoint
          </button>
        )}
      </div>
      {created && (
        <SecretOnce
          title={`Endpoint ${created.url} added`}
          secret={created.secret}
          onDismiss={() => setCreated(null)}
        >
          <p className="small">
            Your receiver checks each request's <code>webhook-signature</code> with this signing
            secret.
          </p>
        </SecretOnce>
      )}
      {write && adding && (
        <CreateEndpointForm
          onCancel={() => setAdding(false)}
          onCreated={(endpoint) => {
            setCreated(endpoint);
            setAdding(false);
          }}
        />
      )}
      {!write && (
        <p className="notice">Viewers can see endpoints and their logs, not change them.</p>
      )}
      <QueryView
        query={list}
        isEmpty={(page) => page.data.length === 0}
        empty={
          <Empty title="No webhook endpoints yet">
            {write ? "Add one to receive monitor, error, alert and incident events." : null}
          </Empty>
        }
      >
        {(page) => <EndpointTable endpoints={page.data} write={write} />}
      </QueryView>
    </section>
  );
}

function EndpointTable({ endpoints, write }: { endpoints: WebhookEndpoint[]; write: boolean }) {
  return (
    <div className="table-scroll">
      <table className="data">
        <caption className="visually-hidden">Webhook endpoints</caption>
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id} data-endpoint-id={endpoint.id}>
              <td className="settings-url">
                <Link href={`/webhooks/${encodeURIComponent(endpoint.id)}`}>{endpoint.url}</Link>
              </td>
              <td>
                <EventChips events={endpoint.events} />
              </td>
              <td>
                <StateBadge state={endpoint.status} />
              </td>
              <td title={formatTime(endpoint.createdAt)}>{formatRelative(endpoint.createdAt)}</td>
              <td className="settings-actions">
                <Link
                  className="button small"
                  href={`/webhooks/${encodeURIComponent(endpoint.id)}`}
                  aria-label={`Delivery log of ${endpoint.url}`}
                >
                  Delivery log
                </Link>
                {write && <EndpointActions endpoint={endpoint} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function EventChips({ events }: { events: string[] }) {
  return (
    <ul className="settings-chips">
      {events.map((event) => (
        <li key={event}>
          <code>{event}</code>
        </li>
      ))}
    </ul>
  );
}

function CreateEndpointForm({
  onCreated,
  onCancel,
}: {
  onCreated: (endpoint: CreatedWebhookEndpoint) => void;
  onCancel: () => void;
}) {
  const { projectId } = useProject();
  const client = useQueryClient();
  const [url, setUrl] = useState("https://");
  const [events, setEvents] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () =>
      api<CreatedWebhookEndpoint>(webhookPath(projectId), {
        method: "POST",
        body: { url, events },
      }),
    onSuccess: async (endpoint) => {
      onCreated(endpoint);
      await client.invalidateQueries({ queryKey: keys.endpoints(projectId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="Add a webhook endpoint">
      <h3>Add a webhook endpoint</h3>
      <Field
        label="Endpoint URL"
        name="url"
        error={create.error}
        hint="An https:// URL. Vigil first POSTs an endpoint.verify request to it; it must answer 2xx within 8 s."
      >
        {(props) => (
          <input
            {...props}
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            required
            maxLength={2048}
            placeholder="https://hooks.example.com/vigil"
          />
        )}
      </Field>
      <EventPicker value={events} onChange={setEvents} error={create.error} />
      <FormError error={create.error} fields={["url", "events"]} />
      <div className="settings-buttons">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? "Verifying the endpoint…" : "Add endpoint"}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The subscribable event types as checkboxes, from the server's registry. */
export function EventPicker({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (events: string[]) => void;
  error: unknown;
}) {
  const types = useQuery({
    queryKey: keys.eventTypes,
    queryFn: fetchEventTypes,
    staleTime: 600_000,
  });
  const errorId = useId();
  const message = error instanceof ApiError ? error.fieldError("events") : undefined;
  const toggle = (type: string, on: boolean) =>
    onChange(on ? [...value, type] : value.filter((t) => t !== type));
  return (
    <fieldset
      className={`settings-events${message ? " invalid" : ""}`}
      aria-describedby={message ? errorId : undefined}
    >
      <legend>Events</legend>
      <QueryView query={types} loadingLabel="Loading event types…">
        {(list: WebhookEventType[]) => (
          <>
            <div className="settings-buttons">
              <button
                type="button"
                className="button small"
                onClick={() => onChange(list.map((t) => t.type))}
              >
                Select all
              </button>
              <button type="button" className="button small" onClick={() => onChange([])}>
                Clear
              </button>
            </div>
            <ul>
              {list.map((t) => (
                <li key={t.type}>
                  <label>
                    <input
                      type="checkbox"
                      checked={value.includes(t.type)}
                      onChange={(e) => toggle(t.type, e.target.checked)}
                    />{" "}
                    <code>{t.type}</code>
                  </label>
                  <small className="muted"> {t.description}</small>
                </li>
              ))}
            </ul>
          </>
        )}
      </QueryView>
      {message && (
        <small id={errorId} className="field-error">
          {message}
        </small>
      )}
    </fieldset>
  );
}
