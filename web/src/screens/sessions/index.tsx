import { Route, Switch } from "wouter";
import { SessionView } from "./detail";
import { SessionList } from "./list";
import "./sessions.css";

/** Sessions: the list at /sessions, one session's timeline at /sessions/:sessionId. */
export function Area() {
  return (
    <Switch>
      <Route path="/" component={SessionList} />
      <Route path="/:sessionId">{(params) => <SessionView sessionId={params.sessionId} />}</Route>
    </Switch>
  );
}
