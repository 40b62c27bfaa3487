import { useCallback, useMemo } from "react";
import type { Panel, PanelLink, PanelQueryResult } from "../../../../src/contracts/dashboards";
import type { TimeRange } from "../../lib/time-range";
import { useProject } from "../project-context";
import { defaultLinkFor, type LinkFor, PanelBody as PanelRenderer } from "./panels/index";

/** What the frame (and the editor's preview) gives a panel's renderer. */
export interface PanelBodyProps {
  panel: Panel;
  /** One per query, in the panel's order; undefined while that query has no answer. */
  results: (PanelQueryResult | undefined)[];
  error: unknown;
  loading: boolean;
  /** The dashboard's window; a panel's own answer names the window it was bound to. */
  window: TimeRange;
  /** A drag across a time axis (Unix seconds): the whole dashboard zooms to it. */
  onZoom: (from: number, to: number) => void;
  /** Where a panel link leads from a row of data (columns by name), variables carried. */
  linkFor: (link: PanelLink, row?: Record<string, unknown>) => string;
}

/**
 * A panel's results drawn by the renderers (panels/): the answers once every query has one
 * (a refId stays with its query), the window the server bound them to, zoom in seconds for the
 * dashboard's range, and links to traces and logs, or through `linkFor` (variables carried).
 */
export function PanelBody({
  panel,
  results,
  error,
  loading,
  window,
  onZoom,
  linkFor,
}: PanelBodyProps) {
  const { projectId } = useProject();
  const complete = results.every((r) => r !== undefined) ? (results as PanelQueryResult[]) : [];
  const from = complete[0]?.window.from ?? window.from;
  const to = complete[0]?.window.to ?? window.to;
  const shown = useMemo(() => ({ from, to }), [from, to]);
  const links = useMemo((): LinkFor => {
    const base = defaultLinkFor(projectId, shown);
    return (target) =>
      target.kind === "link" ? linkFor(target.link, target.values) : base(target);
  }, [projectId, shown, linkFor]);
  const zoom = useCallback(
    (a: string, b: string) => onZoom(Date.parse(a) / 1000, Date.parse(b) / 1000),
    [onZoom],
  );
  return (
    <PanelRenderer
      panel={panel}
      results={complete}
      error={error}
      loading={loading}
      window={shown}
      onZoom={zoom}
      linkFor={links}
    />
  );
}
