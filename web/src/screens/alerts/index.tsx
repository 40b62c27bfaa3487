import { Route, Switch } from "wouter";
import { NewRule, RuleScreen } from "./editor";
import { RuleList } from "./list";
import "./alerts.css";

/** `/projects/:projectId/alerts…`: the rules, the editor for a new rule, and a rule's screen. */
export function Area() {
  return (
    <Switch>
      <Route path="/new" component={NewRule} />
      <Route path="/:ruleId">{(params) => <RuleScreen ruleId={params.ruleId} />}</Route>
      <Route component={RuleList} />
    </Switch>
  );
}
