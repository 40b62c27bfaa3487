import { Route, Switch } from "wouter";
import { StatusPageEditor } from "./editor";
import { StatusPageList } from "./page-list";
import "./status-pages.css";

/** Status pages of the project's organization: the list and each page's editor. */
export function Area() {
  return (
    <Switch>
      <Route path="/" component={StatusPageList} />
      <Route path="/:pageId" component={StatusPageEditor} />
    </Switch>
  );
}
