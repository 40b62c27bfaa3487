import { useCallback, useMemo, useState } from "react";
import { Link } from "wouter";
import {
  REFRESH_INTERVALS,
  type RefreshInterval,
  type DashboardView as View,
} from "../../../../src/contracts/dashboards";
import { canWrite } from "../../api/session";
import { Empty, ProblemMessage, QueryView } from "../../components/feedback";
import { PageHeader, TimeRangePicker } from "../../components/ui";
import { useChartZoom } from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import { DashboardGrid, FullScreenPanel } from "./dashboard-grid";
import {
  useAutoRefresh,
  useDashboardRange,
  useDashboardVariables,
  useRefreshChoice,
} from "./dashboard-state";
import { downloadDashboard, toTimeRangeSetting, useDashboard } from "./dashboards-api";
import type { PanelScope } from "./panel-frame";
import { REFRESH_LABELS } from "./refresh-interval";
import { StarButton } from "./star-button";
import { VariableBar } from "./variable-bar";

/** `/dashboards/:dashboardId`: the dashboard in view mode. */
export function DashboardScreen({ dashboardId }: { dashboardId: string }) {
  const { projectId } = useProject();
  const dashboard = useDashboard(projectId, dashboardId);
  return (
    <QueryView query={dashboard} loadingLabel="Loading the dashboard…">
      {(view) => <DashboardBody key={view.id} dashboard={view} />}
    </QueryView>
  );
}

/**
 * The header (title, tags, star, actions), the time range, auto refresh, the variables, and
 * the grid of panels. Everything a viewer changes is in the URL, so a link shows the same.
 */
function DashboardBody({ dashboard }: { dashboard: View }) {
  const { projectId, role } = useProject();
  const writable = canWrite(role);
  const [params, setParams] = useUrlParams();
  const [exportError, setExportError] = useState<unknown>(null);
  const [range, setRange] = useDashboardRange(dashboard.timeRange);
  const [refresh, setRefresh] = useRefreshChoice(dashboard.refresh);
  const { refreshKey, refreshNow } = useAutoRefresh(refresh);
  const timeSetting = toTimeRangeSetting(range.spec);
  const variables = useDashboardVariables(projectId, dashboard.variables, timeSetting, refreshKey);
  const onZoom = useChartZoom(setRange);
  const onView = useCallback((id: string) => setParams({ view: id }, { push: true }), [setParams]);
  const closeView = useCallback(() => setParams({ view: undefined }), [setParams]);
  const search = params.toString();
  const scope: PanelScope = {
    links: {
      projectId,
      selections: variables.selections,
      bound: variables.bound,
      range: range.spec,
    },
    timeSetting,
    window: range,
    refreshKey,
    ready: variables.ready,
    onZoom,
    writable,
    dashboardTitle: dashboard.title,
    editHref: (panelId) => `/${dashboard.id}/edit?panel=${encodeURIComponent(panelId)}`,
    onView,
  };
  const viewed = useMemo(
    () => dashboard.panels.find((p) => p.id && p.id === params.get("view")),
    [dashboard.panels, params],
  );
  return (
    <div className="dsh-view">
      <PageHeader
        title={dashboard.title}
        actions={
          <>
            <Link href="/" className="button small">
              ← Dashboards
            </Link>
            <button
              type="button"
              className="button small"
              onClick={() => {
                setExportError(null);
                downloadDashboard(projectId, dashboard.id).catch(setExportError);
              }}
            >
              Export
            </button>
            {writable && (
              <Link
                href={`/${dashboard.id}/edit${search ? `?${search}` : ""}`}
                className="button small primary"
              >
                Edit
              </Link>
            )}
          </>
        }
      >
        <div className="dsh-title-line">
          <StarButton projectId={projectId} id={dashboard.id} starred={dashboard.starred} />
          {dashboard.tags.map((tag) => (
            <Link key={tag} href={`/?tag=${encodeURIComponent(tag)}`} className="dsh-tag">
              {tag}
            </Link>
          ))}
        </div>
        {dashboard.description && <p className="muted small">{dashboard.description}</p>}
      </PageHeader>
      {exportError !== null && <ProblemMessage error={exportError} title="Export failed" />}
      <div className="toolbar dsh-toolbar">
        <TimeRangePicker range={range} onChange={setRange} />
        <label className="inline-field">
          <span>Refresh</span>
          <select
            value={refresh}
            aria-label="Auto refresh"
            onChange={(e) => setRefresh(e.target.value as RefreshInterval)}
          >
            {REFRESH_INTERVALS.map((r) => (
              <option key={r} value={r}>
                {REFRESH_LABELS[r]}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button small" onClick={refreshNow}>
          Refresh now
        </button>
      </div>
      <VariableBar states={variables.states} onSelect={variables.select} />
      {dashboard.panels.length === 0 ? (
        <Empty title="No panels yet">
          {writable && (
            <>
              <Link href={`/${dashboard.id}/edit`}>Add a panel</Link> in edit mode.
            </>
          )}
        </Empty>
      ) : (
        <DashboardGrid dashboard={dashboard} scope={scope} />
      )}
      {viewed && <FullScreenPanel panel={viewed} scope={scope} onClose={closeView} />}
    </div>
  );
}
