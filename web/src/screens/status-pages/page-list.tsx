import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { Link, useLocation } from "wouter";
import type { StatusPageConfigView } from "../../../../src/contracts/status-pages";
import { api, orgApi } from "../../api/client";
import { canManage, useMe } from "../../api/session";
import { DataTable } from "../../components/data-table";
import { Empty, QueryView } from "../../components/feedback";
import { RelativeTime } from "../../components/relative-time";
import { Drawer, PageHeader } from "../../components/ui";
import { useUrlParam } from "../../lib/url-state";
import { useProject } from "../project-context";
import {
  type PageFieldsInput,
  publicPath,
  refreshPages,
  useStatusPageSummaries,
  useStatusPages,
} from "./api";
import { EMPTY_PAGE, PageFieldsForm } from "./page-form";
import { StatusStateBadge } from "./state-badge";

/** The organization's status pages: state, counts, public link; owners and admins create. */
export function StatusPageList() {
  const { orgId, projectId, role } = useProject();
  const orgName =
    useMe().data?.organizations.find((o) => o.id === orgId)?.name ?? "the organization";
  const pages = useStatusPages(orgId);
  const summaries = useStatusPageSummaries(orgId, projectId);
  const [creating, setCreating] = useUrlParam("new");
  const manager = canManage(role);
  const close = useCallback(() => setCreating(undefined), [setCreating]);
  return (
    <>
      <PageHeader
        title="Status pages"
        actions={
          manager && (
            <button type="button" className="button primary" onClick={() => setCreating("1")}>
              New status page
            </button>
          )
        }
      >
        <p className="muted">
          Public pages of {orgName}: components fed by monitors and alert rules of its projects,
          incidents and maintenance.
          {!manager && " Owners and admins edit them."}
        </p>
      </PageHeader>
      <QueryView
        query={pages}
        isEmpty={(list) => list.data.length === 0}
        empty={
          <Empty title="No status pages yet">
            {manager
              ? "Create one to tell your users how your services are doing."
              : "An owner or admin of the organization can create one."}
          </Empty>
        }
      >
        {(list) => (
          <DataTable
            columns={[
              "Page",
              "State",
              { label: "Components", num: true },
              { label: "Active incidents", num: true },
              "Updated",
              "Public page",
            ]}
          >
            {list.data.map((page) => {
              const summary = summaries.data?.get(page.id);
              return (
                <tr key={page.id}>
                  <td>
                    <Link href={`/${page.id}`}>{page.title}</Link>
                    {page.description && (
                      <div className="muted small sp-clamp">{page.description}</div>
                    )}
                  </td>
                  <td>
                    <StatusStateBadge state={page.status} />
                  </td>
                  <td className="num">{summary?.components ?? "—"}</td>
                  <td className="num">{summary?.activeIncidents ?? "—"}</td>
                  <td>
                    <RelativeTime at={page.updatedAt} />
                  </td>
                  <td>
                    <a
                      href={publicPath(page.slug)}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={`Open the public page of ${page.title} (new tab)`}
                    >
                      {summary?.url ?? publicPath(page.slug)} ↗
                    </a>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </QueryView>
      {manager && creating && <CreatePage orgId={orgId} onClose={close} />}
    </>
  );
}

function CreatePage({ orgId, onClose }: { orgId: string; onClose: () => void }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const create = useMutation({
    mutationFn: (input: PageFieldsInput) =>
      api<StatusPageConfigView>(orgApi(orgId, "/status-pages"), { method: "POST", body: input }),
    onSuccess: async (config) => {
      await refreshPages(client, orgId);
      navigate(`/${config.page.id}`);
    },
  });
  const [initial] = useState(EMPTY_PAGE);
  return (
    <Drawer title="New status page" onClose={onClose}>
      <PageFieldsForm
        initial={initial}
        submitLabel="Create status page"
        formLabel="Create a status page"
        autoSlug
        pending={create.isPending}
        error={create.error}
        onSubmit={(input) => create.mutate(input)}
      />
    </Drawer>
  );
}
