import type { Panel, PanelLink, PanelQueryResult } from "../../../../src/contracts/dashboards";
import type { TimeRange } from "../../lib/time-range";

/** What the frame gives a panel's renderer (panels/index.tsx's PanelBody takes the same). */
export interface PanelBodyProps {
  panel: Panel;
  /** One per query, in the panel's order; undefined while that query has no answer. */
  results: (PanelQueryResult | undefined)[];
  error: unknown;
  loading: boolean;
  window: TimeRange;
  /** A drag across a time axis (Unix seconds): the whole dashboard zooms to it. */
  onZoom: (from: number, to: number) => void;
  /** Where a panel link leads from a row of data (columns by name). */
  linkFor: (link: PanelLink, row?: Record<string, unknown>) => string;
}

/**
 * Stands in for the panel renderers (panels/, slice E) until they land: how many rows each
 * query answered, and a text panel's Markdown as plain text (never as HTML).
 */
export function PanelBody({ panel, results, loading }: PanelBodyProps) {
  if (panel.type === "text") return <div className="dsh-plain">{panel.content ?? ""}</div>;
  if (loading && results.every((r) => r === undefined)) return null;
  return (
    <ul className="dsh-plain">
      {results.map((result, i) => (
        <li key={panel.queries[i]?.refId ?? i}>
          {panel.queries[i]?.refId ?? `Query ${i + 1}`}:{" "}
          {result ? `${result.rowCount} rows` : "waiting"}
        </li>
      ))}
    </ul>
  );
}
