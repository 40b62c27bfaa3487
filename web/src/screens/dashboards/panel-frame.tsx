import { useCallback, useId, useRef, useState } from "react";
import { Link } from "wouter";
import type { Panel, PanelLink, TimeRangeSetting } from "../../../../src/contracts/dashboards";
import { useDismiss } from "../../lib/dismiss";
import type { TimeRange } from "../../lib/time-range";
import { downloadCsv } from "../tql/csv";
import { usePanelResults } from "./dashboards-api";
import { PanelBody } from "./panel-body";
import { alertHref, exploreHref, type LinkScope, panelLinkHref } from "./panel-links";

/** What every panel of one dashboard view shares. */
export interface PanelScope {
  links: LinkScope;
  timeSetting: TimeRangeSetting;
  window: TimeRange;
  refreshKey: number;
  /** False until the variables are known: the panels wait rather than ask twice. */
  ready: boolean;
  onZoom: (from: number, to: number) => void;
  writable: boolean;
  dashboardTitle: string;
  /** The panel's place in the editor (`…/edit?panel=<id>`), for "Edit". */
  editHref: (panelId: string) => string;
  /** Opens the panel full screen (`view=<id>`). */
  onView: (panelId: string) => void;
}

const fileName = (title: string, index: number) =>
  `${(title || "panel").replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 60)}${index ? `-${index + 1}` : ""}.csv`;

/**
 * One panel: its title (the description on hover and for screen readers), a menu, and its
 * renderer. Its queries run on their own, in parallel with every other panel's; an error stays
 * inside the frame.
 */
export function PanelFrame({ panel, scope }: { panel: Panel; scope: PanelScope }) {
  const { results, error, loading, fetching } = usePanelResults(
    scope.links.projectId,
    panel,
    scope.links.bound,
    scope.timeSetting,
    scope.refreshKey,
    { enabled: scope.ready },
  );
  const describedBy = useId();
  const waiting = loading || (!scope.ready && panel.type !== "text");
  const state = error ? "error" : waiting ? "loading" : "done";
  const links = scope.links;
  const linkFor = useCallback(
    (link: PanelLink, row?: Record<string, unknown>) => panelLinkHref(links, link, row),
    [links],
  );
  return (
    <section
      className="dsh-panel"
      aria-label={panel.title || "Untitled panel"}
      aria-describedby={panel.description ? describedBy : undefined}
      aria-busy={waiting || fetching}
      data-state={state}
      data-panel-id={panel.id}
    >
      <header className="dsh-panel-header">
        <h3 title={panel.title}>{panel.title || <span className="muted">Untitled</span>}</h3>
        {panel.description && (
          <span className="dsh-panel-info" title={panel.description}>
            <span aria-hidden="true" className="dsh-info-mark">
              i
            </span>
            <span id={describedBy} className="visually-hidden">
              {panel.description}
            </span>
          </span>
        )}
        {fetching && <span className="spinner dsh-panel-spinner" aria-hidden="true" />}
        <span className="spacer" />
        <PanelMenu
          panel={panel}
          scope={scope}
          csv={() =>
            results.forEach((r, i) => {
              if (r) downloadCsv(r, fileName(panel.title, i));
            })
          }
          hasData={results.some((r) => r !== undefined)}
        />
      </header>
      <div className="dsh-panel-body">
        <PanelBody
          panel={panel}
          results={results}
          error={error}
          loading={waiting}
          window={scope.window}
          onZoom={scope.onZoom}
          linkFor={linkFor}
        />
      </div>
    </section>
  );
}

/** The panel's actions: view, explore, create alert, CSV, its links, and edit for writers. */
function PanelMenu({
  panel,
  scope,
  csv,
  hasData,
}: {
  panel: Panel;
  scope: PanelScope;
  csv: () => void;
  hasData: boolean;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();
  useDismiss(open, root, () => setOpen(false));
  const several = panel.queries.length > 1;
  const queryName = (i: number) => panel.queries[i]?.refId ?? String.fromCharCode(65 + i);
  return (
    <div className="dsh-menu" ref={root}>
      <button
        type="button"
        className="button small dsh-menu-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`Panel menu: ${panel.title || "untitled"}`}
        onClick={() => setOpen(!open)}
      >
        ⋮
      </button>
      {open && (
        <ul id={menuId} className="dsh-menu-list">
          {panel.id && (
            <li>
              <button
                type="button"
                onClick={() => {
                  setOpen(false);
                  scope.onView(panel.id ?? "");
                }}
              >
                View
              </button>
            </li>
          )}
          {panel.queries.map((q, i) => (
            <li key={q.refId ?? i}>
              <Link href={`~${exploreHref(scope.links, q.tql)}`}>
                Explore{several ? ` ${queryName(i)}` : ""}
              </Link>
            </li>
          ))}
          {scope.writable &&
            panel.queries.slice(0, 1).map((q) => (
              <li key="alert">
                <Link href={`~${alertHref(scope.links, q.tql, panel.title, scope.dashboardTitle)}`}>
                  Create alert
                </Link>
              </li>
            ))}
          {hasData && (
            <li>
              <button
                type="button"
                onClick={() => {
                  setOpen(false);
                  csv();
                }}
              >
                Export CSV
              </button>
            </li>
          )}
          {panel.links.map((link) => (
            <li key={`${link.kind}:${link.title}`}>
              <Link href={`~${panelLinkHref(scope.links, link)}`}>{link.title}</Link>
            </li>
          ))}
          {scope.writable && panel.id && (
            <li>
              <Link href={scope.editHref(panel.id)}>Edit</Link>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
