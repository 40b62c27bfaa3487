import { Route, Switch } from "wouter";
import { TraceList } from "./trace-list";
import { TraceView } from "./trace-view";
import "./traces.css";

/** The Traces area: the list at `/traces`, one trace's waterfall at `/traces/:traceId`. */
export function Area() {
  return (
    <Switch>
      <Route path="/:traceId">
        {(params: { traceId: string }) => (
          <TraceView key={params.traceId} traceId={params.traceId} />
        )}
      </Route>
      <Route>
        <TraceList />
      </Route>
    </Switch>
  );
}
