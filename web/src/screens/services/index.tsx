import { Route, Switch } from "wouter";
import { serviceFromSegment } from "./service-links";
import { ServiceList } from "./service-list";
import { ServiceMapScreen } from "./service-map";
import { ServicePage } from "./service-page";
import "./services.css";

/**
 * Services: the list (`/services`), the map (`/services/map`) and one service's page
 * (`/services/:service`). The router hands a segment on half-decoded (decodeURI), so the
 * service's name is read from the path as the browser keeps it: any name (a slash, a percent
 * sign, "map" itself) comes back as it was.
 */
export function Area() {
  return (
    <Switch>
      <Route path="/" component={ServiceList} />
      <Route path="/:segment">
        {() => {
          const raw = window.location.pathname.split("/").pop() ?? "";
          const service = serviceFromSegment(raw);
          return service === null ? (
            <ServiceMapScreen />
          ) : (
            <ServicePage key={service} service={service} />
          );
        }}
      </Route>
      <Route component={ServiceList} />
    </Switch>
  );
}
