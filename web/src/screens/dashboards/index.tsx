import { lazy, Suspense } from "react";
import { Redirect, Route, Switch } from "wouter";
import "../../styles/dashboards.css";
import { canWrite } from "../../api/session";
import { Loading, QueryView } from "../../components/feedback";
import { useProject } from "../project-context";
import { DashboardList } from "./dashboard-list";
import { DashboardScreen } from "./dashboard-view";
import { useDashboard } from "./dashboards-api";

/** Edit mode brings the TQL editor with it: loaded when someone edits, not for every viewer. */
const DashboardEditor = lazy(() =>
  import("./edit/index").then((m) => ({ default: m.DashboardEditor })),
);

/**
 * `/projects/:projectId/dashboards…`: the list with the template gallery, a dashboard in view
 * mode (`/:dashboardId`), and in edit mode (`/:dashboardId/edit`, members and above).
 */
export function Area() {
  const { projectId } = useProject();
  return (
    <Switch key={projectId}>
      <Route path="/:dashboardId/edit">
        {(params) => <EditScreen dashboardId={params.dashboardId} />}
      </Route>
      <Route path="/:dashboardId">
        {(params) => <DashboardScreen dashboardId={params.dashboardId} />}
      </Route>
      <Route component={DashboardList} />
    </Switch>
  );
}

/** A viewer who follows an edit link sees the dashboard instead. */
function EditScreen({ dashboardId }: { dashboardId: string }) {
  const { projectId, role } = useProject();
  const dashboard = useDashboard(projectId, dashboardId);
  if (!canWrite(role)) return <Redirect to={`/${encodeURIComponent(dashboardId)}`} replace />;
  return (
    <QueryView query={dashboard} loadingLabel="Loading the dashboard…">
      {(view) => (
        <Suspense fallback={<Loading label="Loading the editor…" />}>
          <DashboardEditor key={view.id} projectId={projectId} dashboard={view} />
        </Suspense>
      )}
    </QueryView>
  );
}
