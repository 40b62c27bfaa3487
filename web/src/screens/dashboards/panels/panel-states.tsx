import { Component, type ErrorInfo, type ReactNode } from "react";
import { ApiError, errorMessage } from "../../../api/client";
import { formatTime } from "../../../lib/format";

/** A panel's failure, inside the panel: the problem's title, detail, position and fields. */
export function PanelProblem({ error, title }: { error: unknown; title?: string }) {
  const problem = error instanceof ApiError ? error.problem : undefined;
  const heading =
    title ?? (problem?.title && problem.title !== problem.detail ? problem.title : "Query failed");
  return (
    <div className="panel-state panel-problem" role="alert">
      <strong>{heading}</strong>
      <p>{errorMessage(error)}</p>
      {problem?.position && (
        <p className="small">
          At line {problem.position.line}, column {problem.position.column} of the query.
        </p>
      )}
      {problem?.errors && problem.errors.length > 0 && (
        <ul className="small">
          {problem.errors.map((e) => (
            <li key={`${e.field}:${e.message}`}>
              <code>{e.field}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** No rows: said plainly, with what to try. */
export function NoData({ window }: { window: { from: string; to: string } }) {
  return (
    <div className="panel-state panel-empty">
      <strong>No data in this window</strong>
      <p className="muted small">
        The query returned no rows from {formatTime(window.from)} to {formatTime(window.to)}. Widen
        the time range, or check the variables and the query's filters.
      </p>
    </div>
  );
}

/** Rows the panel type cannot read: what shape it needs, and how to write it. */
export function ShapeHint({ children }: { children: ReactNode }) {
  return (
    <div className="panel-state panel-empty">
      <strong>This result cannot be drawn as this panel</strong>
      <p className="muted small">{children}</p>
    </div>
  );
}

export function PanelLoading() {
  return (
    <div className="panel-state panel-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> Loading…
    </div>
  );
}

/**
 * One panel's render error stays in that panel: the rest of the dashboard keeps drawing. A new
 * panel or new results give it another try.
 */
export class PanelErrorBoundary extends Component<
  { children: ReactNode; resetKeys: readonly unknown[] },
  { error: unknown }
> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKeys: readonly unknown[] }) {
    const changed = previous.resetKeys.some((key, i) => key !== this.props.resetKeys[i]);
    if (changed && this.state.error) this.setState({ error: null });
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.warn("Panel failed to draw", error, info.componentStack);
  }

  override render() {
    if (this.state.error)
      return <PanelProblem error={this.state.error} title="This panel failed to draw" />;
    return this.props.children;
  }
}
