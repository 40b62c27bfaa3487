import { type ReactNode, useContext, useMemo, useState } from "react";
import type { Panel, PanelQueryResult, PanelType } from "../../../../../src/contracts/dashboards";
import { ProjectContext } from "../../project-context";
import { BarGaugePanel } from "./bargauge-panel";
import type { QueryFrame } from "./frames";
import { HeatmapPanel } from "./heatmap-panel";
import { defaultLinkFor, type LinkFor } from "./links";
import { LogsPanel } from "./logs-panel";
import type { PanelViewProps } from "./panel-props";
import { NoData, PanelErrorBoundary, PanelLoading, PanelProblem } from "./panel-states";
import { PiePanel } from "./pie-panel";
import { StatPanel } from "./stat-panel";
import { TablePanel } from "./table-panel";
import { TextPanel } from "./text-panel";
import { TimeSeriesPanel } from "./timeseries-panel";
import { TracesPanel } from "./traces-panel";
import "../../../styles/dashboards-panels.css";
import "./panel-lists.css";

export type { LinkFor, PanelLinkTarget } from "./links";
export { defaultLinkFor } from "./links";
export { formatUnit } from "./units";

export interface PanelBodyProps {
  panel: Panel;
  /** One per panel query, in order; empty while the first answers load. */
  results: readonly PanelQueryResult[];
  /** A failed query (an ApiError's problem is shown), inside the panel only. */
  error?: unknown;
  loading?: boolean;
  /** The window the panel shows (ISO): its time axis spans it. */
  window: { from: string; to: string };
  /** A drag across a time series or heatmap: the window to zoom to (ISO). */
  onZoom?: (from: string, to: string) => void;
  /**
   * App paths for the panel's links (traces, logs, panel links). Absent: the project's traces
   * and logs screens over the panel's window, and a dashboard link to the dashboard with the
   * window (pass one to carry the variables too).
   */
  linkFor?: LinkFor;
}

const RENDERERS: Record<Exclude<PanelType, "text">, (props: PanelViewProps) => ReactNode> = {
  timeseries: TimeSeriesPanel,
  stat: StatPanel,
  table: TablePanel,
  bargauge: BarGaugePanel,
  pie: PiePanel,
  heatmap: HeatmapPanel,
  logs: LogsPanel,
  traces: TracesPanel,
};

/**
 * The same list as last time while its items are the same: a caller may build a new array on
 * every render (one answer per query), which must not redraw the charts each time.
 */
function useSameItems<T>(items: readonly T[]): readonly T[] {
  const [kept, setKept] = useState(items);
  const same = kept.length === items.length && kept.every((item, i) => item === items[i]);
  if (!same) setKept(items);
  return same ? kept : items;
}

/**
 * What goes inside a panel's frame: the panel's results drawn as its type says, or the state
 * it is in (loading, failed, no rows, rows it cannot draw). Every failure stays inside the
 * panel, a renderer's own included, so one bad panel never breaks the dashboard.
 */
export function PanelBody({
  panel,
  results: given,
  error,
  loading = false,
  window,
  onZoom,
  linkFor,
}: PanelBodyProps) {
  const results = useSameItems(given);
  const scope = useContext(ProjectContext);
  const projectId = scope?.project.id;
  const links = useMemo(
    () => linkFor ?? (projectId ? defaultLinkFor(projectId, window) : null),
    [linkFor, projectId, window],
  );
  const frames = useMemo(
    (): QueryFrame[] => results.map((result, i) => ({ refId: panel.queries[i]?.refId, result })),
    [results, panel.queries],
  );
  const truncated = results.some((r) => r.truncated);

  let body: ReactNode;
  if (panel.type === "text") body = <TextPanel content={panel.content ?? ""} />;
  else if (error) body = <PanelProblem error={error} />;
  else if (results.length === 0) body = loading ? <PanelLoading /> : <NoData window={window} />;
  else if (results.every((r) => r.rows.length === 0)) body = <NoData window={window} />;
  else {
    const Renderer = RENDERERS[panel.type];
    body = (
      <Renderer panel={panel} frames={frames} window={window} onZoom={onZoom} linkFor={links} />
    );
  }

  return (
    <div className={`panel-body panel-body-${panel.type}`} aria-busy={loading}>
      {loading && results.length > 0 && <div className="panel-refreshing" aria-hidden="true" />}
      <PanelErrorBoundary resetKeys={[panel, results, error]}>{body}</PanelErrorBoundary>
      {truncated && !error && (
        <p className="panel-note muted small">
          The result was cut at its row limit: aggregate or add a LIMIT to see it whole.
        </p>
      )}
    </div>
  );
}
