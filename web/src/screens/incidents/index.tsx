import { Route, Switch } from "wouter";
import { IncidentDetailScreen } from "./incident-detail";
import { IncidentList } from "./incident-list";
import "./incidents.css";

/** Incidents of the project: the list and each incident's timeline. */
export function Area() {
  return (
    <Switch>
      <Route path="/" component={IncidentList} />
      <Route path="/:incidentId" component={IncidentDetailScreen} />
    </Switch>
  );
}
