import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type {
  CreatedSubscriberView,
  CreateSubscriberInput,
  SubscriberCountsView,
  SubscriberView,
} from "../../../../src/contracts/status-page-subscribers";
import { api, type ListPage, orgApi } from "../../api/client";
import { ConfirmButton } from "../../components/confirm-button";
import { DataTable } from "../../components/data-table";
import { Empty, FormProblem, ProblemMessage, QueryView } from "../../components/feedback";
import { FieldGroup, toggled } from "../../components/field-group";
import { TextField } from "../../components/text-field";
import { CopyButton, StateBadge } from "../../components/ui";
import { formatRelative, formatTime } from "../../lib/format";
import { SectionHead, type TabProps } from "./collection";

// A page's subscribers in the editor: how many (confirmed and pending emails, webhooks), who,
// and for owners and admins: add a webhook (its secret shown once) and remove anyone.

const SHOWN = 200;
const subscribersKey = (orgId: string, pageId: string) =>
  ["status-pages", orgId, "subscribers", pageId] as const;

function useSubscribers(orgId: string, pageId: string) {
  const base = orgApi(orgId, `/status-pages/${pageId}/subscribers`);
  const counts = useQuery({
    queryKey: [...subscribersKey(orgId, pageId), "counts"],
    queryFn: () => api<SubscriberCountsView>(`${base}/counts`),
  });
  const list = useQuery({
    queryKey: [...subscribersKey(orgId, pageId), "list"],
    queryFn: () => api<ListPage<SubscriberView>>(base, { query: { limit: SHOWN } }),
  });
  return { base, counts, list };
}

/** The Subscribers tab: counts, the list, and (owners and admins) add a webhook, remove. */
export function SubscribersTab({ orgId, config, manager }: TabProps) {
  const client = useQueryClient();
  const { base, counts, list } = useSubscribers(orgId, config.page.id);
  const refresh = () =>
    client.invalidateQueries({ queryKey: subscribersKey(orgId, config.page.id) });
  const remove = useMutation({
    mutationFn: (id: string) => api(`${base}/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const names = new Map(config.components.map((c) => [c.id, c.name]));
  const c = counts.data;
  return (
    <section className="card" aria-labelledby="sp-subscribers-title">
      <SectionHead id="sp-subscribers-title" title="Subscribers" />
      <p className="muted small">
        People subscribe by email from the public page (they confirm from an email first); each
        email has a one-click unsubscribe link. Webhooks are added here.
      </p>
      <dl className="sp-counts" aria-label="Subscriber counts">
        <div>
          <dt>Confirmed emails</dt>
          <dd data-testid="count-confirmed">{c ? c.confirmedEmail : "…"}</dd>
        </div>
        <div>
          <dt>Awaiting confirmation</dt>
          <dd data-testid="count-pending">{c ? c.pendingEmail : "…"}</dd>
        </div>
        <div>
          <dt>Webhooks</dt>
          <dd data-testid="count-webhooks">{c ? c.webhook : "…"}</dd>
        </div>
      </dl>
      <QueryView query={list} loadingLabel="Loading subscribers…">
        {(page) =>
          page.data.length === 0 ? (
            <Empty title="No subscribers yet">
              The public page's Subscribe form lets anyone follow it by email.
            </Empty>
          ) : (
            <>
              <DataTable
                columns={["Subscriber", "Status", "Follows", "Since", manager && "Actions"]}
              >
                {page.data.map((s) => (
                  <tr key={s.id}>
                    <td>
                      <span className="sp-address">{s.address}</span>
                      <div className="muted small">{s.kind === "email" ? "Email" : "Webhook"}</div>
                    </td>
                    <td>
                      <StateBadge
                        state={s.status === "confirmed" ? "confirmed" : "pending"}
                        tone={s.status === "confirmed" ? "ok" : "warn"}
                      />
                    </td>
                    <td>
                      {s.componentIds.length === 0
                        ? "Whole page"
                        : s.componentIds.map((id) => names.get(id) ?? id).join(", ")}
                    </td>
                    <td>
                      <time dateTime={s.createdAt} title={formatTime(s.createdAt)}>
                        {formatRelative(s.createdAt)}
                      </time>
                    </td>
                    {manager && (
                      <td className="sp-row-actions">
                        <ConfirmButton
                          label="Remove"
                          confirmLabel="Remove subscriber"
                          accessibleName={`Remove subscriber ${s.address}`}
                          pending={remove.isPending}
                          onConfirm={() => remove.mutate(s.id)}
                        />
                      </td>
                    )}
                  </tr>
                ))}
              </DataTable>
              {page.pagination.total > page.data.length && (
                <p className="muted small">
                  Showing the newest {page.data.length} of {page.pagination.total}.
                </p>
              )}
            </>
          )
        }
      </QueryView>
      {remove.isError && <ProblemMessage error={remove.error} />}
      {manager && <AddWebhook base={base} config={config} onAdded={refresh} />}
    </section>
  );
}

const FIELDS = ["url", "componentIds"] as const;

/** Adds a webhook subscriber; its signing secret is shown once, with a copy button. */
function AddWebhook({
  base,
  config,
  onAdded,
}: {
  base: string;
  config: TabProps["config"];
  onAdded: () => void;
}) {
  const [url, setUrl] = useState("");
  const [componentIds, setComponentIds] = useState<string[]>([]);
  const add = useMutation({
    mutationFn: (input: CreateSubscriberInput) =>
      api<CreatedSubscriberView>(base, { method: "POST", body: input }),
    onSuccess: () => {
      setUrl("");
      setComponentIds([]);
      onAdded();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ kind: "webhook", url, componentIds });
  };
  return (
    <form className="form sp-add-webhook" onSubmit={submit} aria-label="Add a webhook subscriber">
      <h3>Add a webhook</h3>
      <TextField
        label="URL"
        name="url"
        error={add.error}
        value={url}
        required
        type="url"
        placeholder="https://example.com/status-hook"
        hint="Receives signed JSON (Standard Webhooks) for incidents and maintenance"
        onChange={setUrl}
      />
      {config.components.length > 0 && (
        <FieldGroup
          legend="Only these components (none: the whole page)"
          name="componentIds"
          error={add.error}
        >
          {config.components.map((component) => (
            <label key={component.id} className="sp-check">
              <input
                type="checkbox"
                checked={componentIds.includes(component.id)}
                onChange={(e) =>
                  setComponentIds((ids) => toggled(ids, component.id, e.target.checked))
                }
              />
              <span>{component.name}</span>
            </label>
          ))}
        </FieldGroup>
      )}
      <FormProblem error={add.error} fields={FIELDS} />
      <button type="submit" className="button primary" disabled={add.isPending}>
        {add.isPending ? "Adding…" : "Add webhook"}
      </button>
      {add.data?.secret && (
        <p className="notice" role="status">
          Signing secret (shown once): <code>{add.data.secret}</code>{" "}
          <CopyButton text={add.data.secret} />
        </p>
      )}
    </form>
  );
}
