import { useMemo } from "react";
import { type AlertUnit, withUnit } from "../../../../src/contracts/alert-catalog";
import type { AlertPreviewView } from "../../../../src/contracts/alerts";
import { type ChartSeries, TimeSeriesChart } from "../../components/chart";
import { DataTable } from "../../components/data-table";
import { ProblemMessage } from "../../components/feedback";
import { StateBadge } from "../../components/ui";
import { formatDuration, formatNumber, formatTime } from "../../lib/format";
import { seriesLabel } from "./draft";

const BREACHING = "#dc2626";
const WITHIN = "#16a34a";

/** Each series' value now as a bar (red when it breaches), with the threshold as a line. */
function PreviewChart({
  preview,
  threshold,
  unit,
}: {
  preview: AlertPreviewView;
  threshold: number | undefined;
  unit: AlertUnit | null;
}) {
  const { x, series, categories, categoryLabel } = useMemo(() => {
    const rows = preview.series.filter((s) => s.value !== null);
    const series: ChartSeries[] = [
      {
        label: "Breaching",
        color: BREACHING,
        values: rows.map((s) => (s.breaching === true ? s.value : null)),
      },
      {
        label: "Not breaching",
        color: WITHIN,
        values: rows.map((s) => (s.breaching === true ? null : s.value)),
      },
    ];
    // Grouped by one label, the axis reads its values ("checkout") under the label's name.
    const only = preview.labels.length === 1 ? preview.labels[0] : undefined;
    return {
      x: rows.map((_, i) => i),
      series,
      categories: rows.map((s) =>
        only === undefined ? seriesLabel(s.labels) : (s.labels[only] ?? ""),
      ),
      categoryLabel: only ?? "Series",
    };
  }, [preview]);
  if (x.length === 0) return null;
  return (
    <TimeSeriesChart
      x={x}
      series={series}
      categories={categories}
      categoryLabel={categoryLabel}
      kind="bar"
      height={200}
      formatValue={(v) => withUnit(formatNumber(v), unit)}
      {...(threshold === undefined ? {} : { threshold })}
      title={`Value of each series now${threshold === undefined ? "" : `, threshold ${withUnit(threshold, unit)}`}`}
    />
  );
}

/** The answer of a preview: the chart, then each series with the state it would take. */
export function PreviewResult({
  preview,
  threshold,
  unit = null,
}: {
  preview: AlertPreviewView;
  threshold: number | undefined;
  /** The value's unit (the preset's): values and threshold are written in it. */
  unit?: AlertUnit | null;
}) {
  return (
    <div className="alr-preview" data-testid="alert-preview">
      <p className="muted small">
        Evaluated {formatTime(preview.evaluatedAt)} in {formatDuration(preview.durationMs)} ·{" "}
        {preview.series.length} series
        {preview.labels.length > 0 && <> · labels: {preview.labels.join(", ")}</>}
      </p>
      {preview.noData && (
        <p className="notice small">
          The query returned no rows: the “when there is no data” setting decides.
        </p>
      )}
      <PreviewChart preview={preview} threshold={threshold} unit={unit} />
      {preview.series.length > 0 && (
        <DataTable columns={["Series", { label: "Value", num: true }, "Breaching", "Would be"]}>
          {preview.series.map((s) => (
            <tr key={s.seriesKey}>
              <td className="mono">{seriesLabel(s.labels)}</td>
              <td className="num">
                {s.value === null ? "no data" : withUnit(formatNumber(s.value), unit)}
              </td>
              <td>
                {s.breaching === "no_data_keep" ? "kept (no data)" : s.breaching ? "yes" : "no"}
              </td>
              <td>
                <StateBadge state={s.nextState} />
                {s.transition !== "none" && <span className="muted small"> ({s.transition})</span>}
                <div className="small muted">{s.message}</div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <details>
        <summary className="small">TQL evaluated</summary>
        <pre>{preview.query}</pre>
      </details>
    </div>
  );
}

/** A preview that failed: the query's problem (TQL errors name `query` and a position). */
export function PreviewError({ error }: { error: unknown }) {
  return <ProblemMessage error={error} title="The preview failed" />;
}

/** The preview side panel: a prompt, the evaluation in progress, its result or its problem. */
export function PreviewPanel({
  writer,
  preview,
  threshold,
  unit = null,
}: {
  writer: boolean;
  preview: {
    isPending: boolean;
    isError: boolean;
    error: unknown;
    data: AlertPreviewView | undefined;
  };
  threshold: number | undefined;
  unit?: AlertUnit | null;
}) {
  return (
    <aside className="card alr-preview-panel" aria-label="Preview">
      <h2>Preview</h2>
      {!writer ? (
        <p className="muted small">Previews run the query: members and above can run them.</p>
      ) : preview.isPending ? (
        <p className="muted">Evaluating…</p>
      ) : preview.isError ? (
        <PreviewError error={preview.error} />
      ) : preview.data ? (
        <PreviewResult preview={preview.data} threshold={threshold} unit={unit} />
      ) : (
        <p className="muted small">
          Evaluates the draft now, without saving: each series, its value against the threshold and
          the state it would take.
        </p>
      )}
    </aside>
  );
}
