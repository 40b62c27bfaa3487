import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ApiKeyPermissions, ApiKeyView, CreatedApiKey } from "../../../../src/contracts/auth";
import { api, projectApi } from "../../api/client";
import { canManage } from "../../api/session";
import { ConfirmButton } from "../../components/confirm-button";
import { DataTable } from "../../components/data-table";
import { Empty, FormProblem, ProblemMessage, QueryView } from "../../components/feedback";
import { FieldGroup, toggled } from "../../components/field-group";
import { RelativeTime } from "../../components/relative-time";
import { TextField } from "../../components/text-field";
import { Field, StateBadge } from "../../components/ui";
import { formatTime } from "../../lib/format";
import { useProject } from "../project-context";
import { fetchApiKeys, fetchKeyPermissions, keys } from "./api";
import { submitWith, useListWrite } from "./list-write";
import { SecretOnce } from "./secret-once";
import { SettingsSection } from "./section";

/** The roles a key can be created with (docs/design.md §4), with what each is for. */
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
  {
    value: "custom",
    label: "Custom permissions",
    hint: "Exactly the permissions ticked below, and nothing else.",
  },
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
    <SettingsSection
      id="api-keys-title"
      title="API keys"
      intro={
        <>
          Keys authenticate SDKs, collectors and scripts against this project (header{" "}
          <code>X-API-Key</code>). A key's secret is shown once, when it is created.
        </>
      }
      readOnly={!manage && "Only owners and admins can create or revoke API keys."}
    >
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
      {manage && <CreateKeyForm onCreated={setCreated} />}
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
    </SettingsSection>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const { projectId } = useProject();
  const [name, setName] = useState("");
  const [role, setRole] = useState<string>("read_only");
  const [permissions, setPermissions] = useState<string[]>([]);
  const catalogue = useQuery({
    queryKey: keys.keyPermissions,
    queryFn: fetchKeyPermissions,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const custom = role === "custom";
  const chooseRole = (next: string) => {
    // Custom starts from what the role chosen before held, so narrowing one is a few clicks.
    if (next === "custom")
      setPermissions(catalogue.data?.roles.find((r) => r.name === role)?.permissions ?? []);
    setRole(next);
  };
  const create = useListWrite(
    () =>
      api<CreatedApiKey>(projectApi(projectId, "/api-keys"), {
        method: "POST",
        body: custom ? { name, permissions } : { name, role },
      }),
    keys.apiKeys(projectId),
    (key) => {
      onCreated(key);
      setName("");
    },
  );
  const hint = ROLES.find((r) => r.value === role)?.hint;
  return (
    <form
      className="card form settings-inline-form"
      onSubmit={submitWith(create)}
      aria-label="Create an API key"
    >
      <h3>Create an API key</h3>
      <div className="settings-form-row">
        <TextField
          label="Key name"
          name="name"
          error={create.error}
          hint="What uses it, e.g. “CI”"
          value={name}
          onChange={setName}
          required
          maxLength={100}
        />
        <Field label="Role" name="role" error={create.error} {...(hint ? { hint } : {})}>
          {(props) => (
            <select {...props} value={role} onChange={(e) => chooseRole(e.target.value)}>
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {custom && (
        <FieldGroup
          legend="Permissions"
          name="permissions"
          error={create.error}
          className="settings-events"
        >
          <QueryView query={catalogue} loadingLabel="Loading permissions…">
            {(list: ApiKeyPermissions) => (
              <ul>
                {list.permissions.map((p) => (
                  <li key={p.name}>
                    <label>
                      <input
                        type="checkbox"
                        checked={permissions.includes(p.name)}
                        onChange={(e) => {
                          // The last refusal was about the list before this change.
                          create.reset();
                          setPermissions(toggled(permissions, p.name, e.target.checked));
                        }}
                      />{" "}
                      <code>{p.name}</code>
                    </label>
                    <small className="muted"> {p.description}</small>
                  </li>
                ))}
              </ul>
            )}
          </QueryView>
        </FieldGroup>
      )}
      <FormProblem error={create.error} fields={["name", "role", "permissions"]} />
      <button type="submit" className="button primary" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create key"}
      </button>
    </form>
  );
}

function KeyTable({ keys: list, manage }: { keys: ApiKeyView[]; manage: boolean }) {
  // Active keys first, then revoked ones; each group newest first.
  const sorted = [...list].sort(
    (a, b) =>
      Number(a.revokedAt !== null) - Number(b.revokedAt !== null) ||
      b.createdAt.localeCompare(a.createdAt),
  );
  return (
    <DataTable
      columns={[
        "Name",
        "Role",
        "Key",
        "Created",
        "Last used",
        "Status",
        manage && { label: "Actions", hidden: true },
      ]}
      caption="API keys"
    >
      {sorted.map((key) => (
        <KeyRow key={key.id} apiKey={key} manage={manage} />
      ))}
    </DataTable>
  );
}

function KeyRow({ apiKey, manage }: { apiKey: ApiKeyView; manage: boolean }) {
  const { projectId } = useProject();
  const revoke = useListWrite(
    () =>
      api<ApiKeyView>(projectApi(projectId, `/api-keys/${encodeURIComponent(apiKey.id)}`), {
        method: "DELETE",
      }),
    keys.apiKeys(projectId),
  );
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
      <td>
        <RelativeTime at={apiKey.createdAt} />
      </td>
      <td>
        {apiKey.lastUsedAt ? (
          <RelativeTime at={apiKey.lastUsedAt} />
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
            <ConfirmButton
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
