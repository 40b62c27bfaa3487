import { Route, Switch } from "wouter";
import { ErrorDetail } from "./error-detail";
import { ErrorList } from "./error-list";
import "./errors.css";

/** Errors: the groups (`/errors`) and one group (`/errors/:errorId`). */
export function Area() {
  return (
    <Switch>
      <Route path="/" component={ErrorList} />
      <Route path="/:errorId" component={ErrorDetail} />
    </Switch>
  );
}
