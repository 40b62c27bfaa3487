import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import type {
  CreatedWebhookEndpointView,
  CreateWebhookEndpointInput,
  WebhookEndpointView,
  WebhookEventTypeView,
} from "../../../../src/contracts/webhooks";
import { api } from "../../api/client";
import { canWrite } from "../../api/session";
import { DataTable } from "../../components/data-table";
import { Empty, FormProblem, QueryView } from "../../components/feedback";
import { FieldGroup, toggled } from "../../components/field-group";
import { RelativeTime } from "../../components/relative-time";
import { Field, StateBadge } from "../../components/ui";
import { useProject } from "../project-context";
import { fetchEndpoints, fetchEventTypes, keys, webhookPath } from "./api";
import { submitWith, useListWrite } from "./list-write";
import { SecretOnce } from "./secret-once";
import { AddButton, SettingsSection } from "./section";
import { EndpointActions } from "./webhook-actions";

/** The project's webhook endpoints: list, create (the signing secret shown once), actions. */
export function WebhooksTab() {
  const { projectId, role } = useProject();
  const write = canWrite(role);
  const list = useQuery({
    queryKey: keys.endpoints(projectId),
    queryFn: () => fetchEndpoints(projectId),
  });
  const [created, setCreated] = useState<CreatedWebhookEndpointView | null>(null);
  const [adding, setAdding] = useState(false);
  return (
    <SettingsSection
      id="webhooks-title"
      title="Webhook endpoints"
      intro="Vigil POSTs signed JSON (Standard Webhooks) to these HTTPS URLs when the events they subscribe to happen. Each attempt is logged; a failed one is retried once after 60 s."
      actions={
        write && !adding && <AddButton label="Add endpoint" onClick={() => setAdding(true)} />
      }
      readOnly={!write && "Viewers can see endpoints and their logs, not change them."}
    >
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
    </SettingsSection>
  );
}

function EndpointTable({ endpoints, write }: { endpoints: WebhookEndpointView[]; write: boolean }) {
  return (
    <DataTable
      columns={["URL", "Events", "Status", "Created", { label: "Actions", hidden: true }]}
      caption="Webhook endpoints"
    >
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
          <td>
            <RelativeTime at={endpoint.createdAt} />
          </td>
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
    </DataTable>
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
  onCreated: (endpoint: CreatedWebhookEndpointView) => void;
  onCancel: () => void;
}) {
  const { projectId } = useProject();
  const [url, setUrl] = useState("https://");
  const [events, setEvents] = useState<string[]>([]);
  const create = useListWrite(
    () =>
      api<CreatedWebhookEndpointView>(webhookPath(projectId), {
        method: "POST",
        body: { url, events } satisfies CreateWebhookEndpointInput,
      }),
    keys.endpoints(projectId),
    onCreated,
  );
  return (
    <form className="card form" onSubmit={submitWith(create)} aria-label="Add a webhook endpoint">
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
      <FormProblem error={create.error} fields={["url", "events"]} />
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
  return (
    <FieldGroup legend="Events" name="events" error={error} className="settings-events">
      <QueryView query={types} loadingLabel="Loading event types…">
        {(list: WebhookEventTypeView[]) => (
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
                      onChange={(e) => onChange(toggled(value, t.type, e.target.checked))}
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
    </FieldGroup>
  );
}
