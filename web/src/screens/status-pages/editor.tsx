import { Link, useParams } from "wouter";
import type { StatusPageConfigView } from "../../../../src/contracts/status-pages";
import { canManage } from "../../api/session";
import { QueryView } from "../../components/feedback";
import { PageHeader, Tabs } from "../../components/ui";
import { formatRelative } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useUrlParam } from "../../lib/url-state";
import { useProject } from "../project-context";
import { publicPath, useStatusPage } from "./api";
import { ComponentsTab } from "./components-tab";
import { MaintenanceTab } from "./maintenance-tab";
import { Preview } from "./preview";
import { SettingsTab } from "./settings-tab";
import { StatusStateBadge } from "./state-badge";
import { SubscribersTab } from "./subscribers-tab";

const TABS = [
  { key: "components", label: "Components" },
  { key: "maintenance", label: "Maintenance" },
  { key: "subscribers", label: "Subscribers" },
  { key: "settings", label: "Settings" },
] as const;
type TabKey = (typeof TABS)[number]["key"];

/** `/status-pages/:pageId`: the page's components, groups, windows and settings beside a preview. */
export function StatusPageEditor() {
  const { pageId = "" } = useParams<{ pageId: string }>();
  const { orgId, projectId } = useProject();
  const config = useStatusPage(orgId, pageId);
  return (
    <>
      <nav aria-label="Breadcrumb" className="sp-crumbs">
        <Link href={`~${projectPath(projectId, "status-pages")}`}>Status pages</Link>
      </nav>
      <QueryView query={config} loadingLabel="Loading the status page…">
        {(data) => <EditorBody config={data} />}
      </QueryView>
    </>
  );
}

function EditorBody({ config }: { config: StatusPageConfigView }) {
  const { orgId, role } = useProject();
  const manager = canManage(role);
  const [tabParam, setTab] = useUrlParam("tab", "components");
  const tab: TabKey = TABS.some((t) => t.key === tabParam) ? (tabParam as TabKey) : "components";
  const { page } = config;
  return (
    <>
      <PageHeader
        title={page.title}
        actions={
          <a
            className="button"
            href={publicPath(page.slug)}
            target="_blank"
            rel="noopener noreferrer"
          >
            Open public page ↗<span className="visually-hidden"> (new tab)</span>
          </a>
        }
      >
        <p className="sp-facts">
          <StatusStateBadge state={page.status} />
          <span className="muted">
            /status/{page.slug} · changed {formatRelative(page.statusChangedAt)} · times in{" "}
            {page.timezone}
          </span>
        </p>
        {!manager && (
          <p className="notice">
            You can read this page; owners and admins of the organization edit it.
          </p>
        )}
      </PageHeader>
      <div className="sp-editor">
        <section className="sp-editor-main" aria-label="Configuration">
          <Tabs
            tabs={TABS}
            value={tab}
            onChange={(key) => setTab(key)}
            label="Status page editor"
          />
          <div role="tabpanel" aria-label={TABS.find((t) => t.key === tab)?.label}>
            {tab === "components" && (
              <ComponentsTab orgId={orgId} config={config} manager={manager} />
            )}
            {tab === "maintenance" && (
              <MaintenanceTab orgId={orgId} config={config} manager={manager} />
            )}
            {tab === "subscribers" && (
              <SubscribersTab orgId={orgId} config={config} manager={manager} />
            )}
            {tab === "settings" && <SettingsTab orgId={orgId} config={config} manager={manager} />}
          </div>
        </section>
        <Preview page={page} />
      </div>
    </>
  );
}
