import { Route, Switch } from "wouter";
import "../../styles/dashboards.css";
import { useProject } from "../project-context";
import { DashboardList } from "./dashboard-list";
import { DashboardScreen } from "./dashboard-view";

/**
 * `/projects/:projectId/dashboards…`: the list with the template gallery, a dashboard in view
 * mode (`/:dashboardId`), and in edit mode (`/:dashboardId/edit`).
 */
export function Area() {
  const { projectId } = useProject();
  return (
    <Switch key={projectId}>
      <Route path="/:dashboardId/edit">
        {(params) => <DashboardScreen dashboardId={params.dashboardId} />}
      </Route>
      <Route path="/:dashboardId">
        {(params) => <DashboardScreen dashboardId={params.dashboardId} />}
      </Route>
      <Route component={DashboardList} />
    </Switch>
  );
}
