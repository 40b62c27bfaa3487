import { Route, Switch } from "wouter";
import { MonitorDetail } from "./detail";
import { EditMonitor, NewMonitor } from "./form";
import { MonitorList } from "./list";
import "./monitors.css";

/** `/projects/:projectId/monitors…`: the list, the form (new and edit) and a monitor's detail. */
export function Area() {
  return (
    <Switch>
      <Route path="/new" component={NewMonitor} />
      <Route path="/:monitorId/edit">
        {(params) => <EditMonitor monitorId={params.monitorId} />}
      </Route>
      <Route path="/:monitorId">{(params) => <MonitorDetail monitorId={params.monitorId} />}</Route>
      <Route component={MonitorList} />
    </Switch>
  );
}
