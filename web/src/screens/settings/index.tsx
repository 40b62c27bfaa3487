import { Link, Redirect, Route, Switch, useLocation } from "wouter";
import { PageHeader } from "../../components/ui";
import { ApiKeysTab } from "./api-keys";
import { ChannelDetail } from "./channel-detail";
import { ChannelsTab } from "./channels";
import { EscalationTab } from "./escalation-policies";
import { MembersTab } from "./members";
import "./settings.css";
import { WebhookDetail } from "./webhook-detail";
import { WebhooksTab } from "./webhooks";

/** The settings sections, each a sub-route of /projects/:id/settings. */
const SECTIONS = [
  { path: "/api-keys", label: "API keys" },
  { path: "/webhooks", label: "Webhooks" },
  { path: "/channels", label: "Notification channels" },
  { path: "/escalation", label: "Escalation" },
  { path: "/members", label: "Members" },
] as const;

export function Area() {
  const [location] = useLocation();
  return (
    <>
      <PageHeader title="Settings" />
      <nav className="settings-tabs" aria-label="Settings sections">
        {SECTIONS.map((section) => {
          const active = location === section.path || location.startsWith(`${section.path}/`);
          return (
            <Link
              key={section.path}
              href={section.path}
              className={active ? "active" : ""}
              aria-current={active ? "page" : undefined}
            >
              {section.label}
            </Link>
          );
        })}
      </nav>
      <Switch>
        <Route path="/api-keys" component={ApiKeysTab} />
        <Route path="/webhooks" component={WebhooksTab} />
        <Route path="/webhooks/:endpointId">
          {(params) => <WebhookDetail endpointId={params.endpointId} />}
        </Route>
        <Route path="/channels" component={ChannelsTab} />
        <Route path="/channels/:channelId">
          {(params) => <ChannelDetail channelId={params.channelId} />}
        </Route>
        <Route path="/escalation" component={EscalationTab} />
        <Route path="/members" component={MembersTab} />
        <Route>
          <Redirect to="/api-keys" replace />
        </Route>
      </Switch>
    </>
  );
}
