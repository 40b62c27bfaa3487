import { keepPreviousData, useQueries } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Panel, PanelQueryResult } from "../../../../../src/contracts/dashboards";
import { ProblemMessage } from "../../../components/feedback";
import { formatDuration, formatNumber } from "../../../lib/format";
import { dashboardKeys, panelRequest, runPanelQuery } from "../dashboards-api";
import { PanelBody } from "../panel-body";
import type { PanelScope } from "../panel-frame";
import { panelLinkHref } from "../panel-links";

/** How long edits rest before the preview asks again. */
export const PREVIEW_DEBOUNCE_MS = 700;

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export interface PreviewAnswers {
  results: (PanelQueryResult | undefined)[];
  /** Each query's error (null when it answered), in the panel's order. */
  errors: unknown[];
  loading: boolean;
}

/**
 * The panel's queries as the dashboard would run them (its variables and window), through the
 * same request and cache as the view: an edit that comes back to a query already asked shows
 * at once. Unlike the view, each query's error is kept, to show beside that query.
 */
export function usePreviewAnswers(
  panel: Pick<Panel, "type" | "queries">,
  scope: PanelScope,
  runKey: number,
): PreviewAnswers {
  const { projectId, bound } = scope.links;
  const queries = panel.type === "text" ? [] : panel.queries.filter((q) => q.tql.trim());
  const answers = useQueries({
    queries: queries.map((query) => {
      const request = panelRequest(query.tql, bound, scope.timeSetting);
      return {
        // Until Run asks again, the view's own key: a query the grid already ran shows at once.
        queryKey: dashboardKeys.panel(
          projectId,
          request,
          runKey === 0 ? scope.refreshKey : `${scope.refreshKey}:${runKey}`,
        ),
        queryFn: ({ signal }: { signal: AbortSignal }) => runPanelQuery(projectId, request, signal),
        enabled: scope.ready,
        placeholderData: keepPreviousData,
        retry: false,
        staleTime: 10_000,
      };
    }),
  });
  const byText = new Map(queries.map((q, i) => [q.tql, answers[i]]));
  const all = panel.type === "text" ? [] : panel.queries.map((q) => byText.get(q.tql));
  return {
    results: all.map((a) => (a?.isError ? undefined : a?.data)),
    errors: all.map((a) => a?.error ?? null),
    loading: answers.some((a) => a.isFetching),
  };
}

/** The panel as the dashboard will show it, with what its queries answered. */
export function PanelPreview({
  panel,
  answers,
  scope,
}: {
  panel: Panel;
  answers: PreviewAnswers;
  scope: PanelScope;
}) {
  const failed = answers.errors.findIndex((e) => e !== null);
  const first = answers.results.find((r) => r !== undefined);
  return (
    <section className="dse-preview" aria-label="Preview" aria-busy={answers.loading}>
      <header className="dse-preview-head">
        <h3>{panel.title || <span className="muted">Untitled</span>}</h3>
        <span className="spacer" />
        {answers.loading && <span className="spinner" aria-hidden="true" />}
        {first && (
          <span className="muted small" aria-live="polite">
            {formatNumber(first.rowCount)} rows · {formatDuration(first.durationMs)}
            {first.cached ? " · cached" : ""}
          </span>
        )}
      </header>
      <div className="dse-preview-body">
        {failed >= 0 ? (
          <ProblemMessage
            error={answers.errors[failed]}
            title={`Query ${panel.queries[failed]?.refId ?? failed + 1} failed`}
          />
        ) : (
          <PanelBody
            panel={panel}
            results={answers.results}
            error={null}
            loading={answers.loading}
            window={scope.window}
            onZoom={scope.onZoom}
            linkFor={(link, row) => panelLinkHref(scope.links, link, row)}
          />
        )}
      </div>
    </section>
  );
}
