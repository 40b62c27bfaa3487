import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, projectApi } from "../../api/client";
import { canManage } from "../../api/session";
import { Empty, ProblemMessage, QueryView } from "../../components/feedback";
import { Field, StateBadge } from "../../components/ui";
import { formatRelative, formatTime } from "../../lib/format";
import { useProject } from "../project-context";
import { type ApiKey, type CreatedApiKey, fetchApiKeys, keys } from "./api";
import { ConfirmAction, FormError, SecretOnce } from "./confirm";

/** The roles a key can be created with (DESIGN §4), with what each is for. */
const ROLES = [
  {
    value: "read_only",
    label: "Read only",
    hint: "Every read permission and TQL queries: dashboards, scripts, the /v1 read API.",
  },
  {
    value: "ingest",
    label: "Ingest",
    hint: "Sends telemetry (OTLP traces, logs, metrics) and nothing else: SDKs and collectors.",
  },
  { value: "full", label: "Full", hint: "Every permission: ingest and read." },
] as const;

const roleLabel = (role: string) => ROLES.find((r) => r.value === role)?.label ?? role;

/** The project's API keys: list, create (the secret shown once) and revoke (owners and admins). */
export function ApiKeysTab() {
  const { projectId, role } = useProject();
  const manage = canManage(role);
  const list = useQuery({
    queryKey: keys.apiKeys(projectId),
    queryFn: () => fetchApiKeys(projectId),
  });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <section aria-labelledby="api-keys-title">
      <div className="settings-section-header">
        <div>
          <h2 id="api-keys-title">API keys</h2>
          <p className="muted">
            Keys authenticate SDKs, collectors and scripts against this project (header{" "}
            <code>X-API-Key</code>). A key's secret is shown once, when it is created.
          </p>
        </div>
      </div>
      {created && (
        <SecretOnce
          title={`API key “${created.name}” created`}
          secret={created.key}
          onDismiss={() => setCreated(null)}
        >
          <p className="small">
            Try it:{" "}
            <code>curl -H "X-API-Key: $VIGIL_API_KEY" {window.location.origin}/v1/whoami</code>
          </p>
        </SecretOnce>
      )}
      {manage ? (
        <CreateKeyForm onCreated={setCreated} />
      ) : (
        <p className="notice">Only owners and admins can create or revoke API keys.</p>
      )}
      <QueryView
        query={list}
        isEmpty={(page) => page.data.length === 0}
        empty={
          <Empty title="No API keys yet">
            {manage ? "Create one above to send telemetry or read data." : null}
          </Empty>
        }
      >
        {(page) => <KeyTable keys={page.data} manage={manage} />}
      </QueryView>
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const { projectId } = useProject();
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [role, setRole] = useState<string>("read_only");
  const create = useMutation({
    mutationFn: () =>
      api<CreatedApiKey>(projectApi(projectId, "/api-keys"), {
        method: "POST",
        body: { name, role },
      }),
    onSuccess: async (key) => {
      onCreated(key);
      setName("");
      await client.invalidateQueries({ queryKey: keys.apiKeys(projectId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const hint = ROLES.find((r) => r.value === role)?.hint;
  return (
    <form
      className="card form settings-inline-form"
      onSubmit={submit}
      aria-label="Create an API key"
    >
      <h3>Create an API key</h3>
      <div className="settings-form-row">
        <Field label="Key name" name="name" error={create.error} hint="What uses it, e.g. “CI”">
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
        <Field label="Role" name="role" error={create.error} {...(hint ? { hint } : {})}>
          {(props) => (
            <select {...props} value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <FormError error={create.error} fields={["name", "role", "permissions"]} />
      <button type="submit" className="button primary" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create key"}
      </button>
    </form>
  );
}

function KeyTable({ keys: list, manage }: { keys: ApiKey[]; manage: boolean }) {
  // Active keys first, then revoked ones; each group newest first.
  const sorted = [...list].sort(
    (a, b) =>
      Number(a.revokedAt !== null) - Number(b.revokedAt !== null) ||
      b.createdAt.localeCompare(a.createdAt),
  );
  return (
    <div className="table-scroll">
      <table className="data">
        <caption className="visually-hidden">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            {manage && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {sorted.map((key) => (
            <KeyRow key={key.id} apiKey={key} manage={manage} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KeyRow({ apiKey, manage }: { apiKey: ApiKey; manage: boolean }) {
  const { projectId } = useProject();
  const client = useQueryClient();
  const revoke = useMutation({
    mutationFn: () =>
      api<ApiKey>(projectApi(projectId, `/api-keys/${encodeURIComponent(apiKey.id)}`), {
        method: "DELETE",
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.apiKeys(projectId) }),
  });
  const revoked = apiKey.revokedAt !== null;
  return (
    <tr className={revoked ? "settings-row-muted" : ""} data-key-id={apiKey.id}>
      <td>{apiKey.name}</td>
      <td>
        <strong>{roleLabel(apiKey.role)}</strong>
        <details className="settings-permissions">
          <summary>
            {apiKey.permissions.length} permission{apiKey.permissions.length === 1 ? "" : "s"}
          </summary>
          <ul>
            {apiKey.permissions.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </details>
      </td>
      <td>
        <code>{apiKey.prefix}…</code>
      </td>
      <td title={formatTime(apiKey.createdAt)}>{formatRelative(apiKey.createdAt)}</td>
      <td title={apiKey.lastUsedAt ? formatTime(apiKey.lastUsedAt) : undefined}>
        {apiKey.lastUsedAt ? (
          formatRelative(apiKey.lastUsedAt)
        ) : (
          <span className="muted">Never</span>
        )}
      </td>
      <td>
        {revoked ? (
          <span title={formatTime(apiKey.revokedAt)}>
            <StateBadge state="revoked" tone="muted" />
          </span>
        ) : (
          <StateBadge state="active" tone="ok" />
        )}
      </td>
      {manage && (
        <td className="settings-actions">
          {!revoked && (
            <ConfirmAction
              label="Revoke"
              question="It stops working at once."
              confirmLabel="Revoke key"
              accessibleName={`Revoke key ${apiKey.name}`}
              pending={revoke.isPending}
              onConfirm={() => revoke.mutate()}
            />
          )}
          {revoke.isError && <ProblemMessage error={revoke.error} />}
        </td>
      )}
    </tr>
  );
}
