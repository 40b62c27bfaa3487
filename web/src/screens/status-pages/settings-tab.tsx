import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import type { StatusPageConfigView } from "../../../../src/contracts/status-pages";
import { api, orgApi } from "../../api/client";
import { ConfirmButton } from "../../components/confirm-button";
import { ProblemMessage } from "../../components/feedback";
import { KeyValues } from "../../components/ui";
import { formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useProject } from "../project-context";
import { type PageFieldsInput, pageKey, refreshPages, usePageWrite } from "./api";
import type { TabProps } from "./collection";
import { PageFieldsForm } from "./page-form";

/** The page's own fields (PATCH) and its deletion; members see them read-only. */
export function SettingsTab({ orgId, config, manager }: TabProps) {
  const { page } = config;
  const save = usePageWrite<PageFieldsInput>(orgId, page.id, (base, input) =>
    api(base, { method: "PATCH", body: input }),
  );
  if (!manager)
    return (
      <div className="card">
        <KeyValues
          entries={[
            ["Title", page.title],
            ["Slug", page.slug],
            ["Description", page.description || "—"],
            ["Logo", page.logoUrl ?? "—"],
            ["Links", page.links.map((l) => `${l.label} (${l.url})`).join(", ") || "—"],
            ["Time zone", page.timezone],
            ["Created", formatTime(page.createdAt)],
          ]}
        />
      </div>
    );
  return (
    <>
      <div className="card">
        <h2>Page settings</h2>
        <PageFieldsForm
          initial={{
            slug: page.slug,
            title: page.title,
            description: page.description,
            logoUrl: page.logoUrl,
            links: page.links,
            timezone: page.timezone,
          }}
          submitLabel="Save settings"
          formLabel="Page settings"
          pending={save.isPending}
          error={save.error}
          onSubmit={(input) => save.mutate(input)}
        />
        {save.isSuccess && (
          <p className="muted" role="status">
            Saved. Changing the slug moves the public page to its new address.
          </p>
        )}
      </div>
      <DeletePage orgId={orgId} config={config} />
    </>
  );
}

function DeletePage({ orgId, config }: { orgId: string; config: StatusPageConfigView }) {
  const { projectId } = useProject();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const remove = useMutation({
    mutationFn: () =>
      api<void>(orgApi(orgId, `/status-pages/${config.page.id}`), { method: "DELETE" }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: pageKey(orgId, config.page.id) });
      await refreshPages(client, orgId);
      navigate(`~${projectPath(projectId, "status-pages")}`);
    },
  });
  return (
    <div className="card sp-danger">
      <h2>Delete this page</h2>
      <p className="muted">
        Removes the public page at /status/{config.page.slug} with its {config.components.length}{" "}
        components, {config.maintenances.length} maintenance windows and their history. Monitors and
        alert rules stay.
      </p>
      <ConfirmButton
        label="Delete page"
        confirmLabel="Delete for good"
        accessibleName={`Delete status page ${config.page.title}`}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
      {remove.isError && <ProblemMessage error={remove.error} />}
    </div>
  );
}
