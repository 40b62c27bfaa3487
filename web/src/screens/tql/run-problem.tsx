import { ApiError, errorMessage } from "../../api/client";
import { errorPosition, type TqlPosition } from "./tql-api";

/** The problem's title and detail; a query's errors name only `query`, so no field list. */
function ProblemMessage({ error, title }: { error: unknown; title: string }) {
  return (
    <div className="problem" role="alert">
      <strong>{title}</strong>
      <p>{errorMessage(error)}</p>
    </div>
  );
}

/**
 * Why a run failed, said for what it is: a query error with its place in the editor (400), a
 * limit the query ran into (422), too many queries at once (429), or anything else.
 */
export function RunProblem({
  error,
  stale,
  onShow,
}: {
  error: unknown;
  /** The editor's text has changed since this run. */
  stale: boolean;
  onShow: (position: TqlPosition) => void;
}) {
  const status = error instanceof ApiError ? error.status : 0;
  const position = errorPosition(error);
  if (position)
    return (
      <div className="tql-problem">
        <ProblemMessage
          error={error}
          title={`Query error at line ${position.line}, column ${position.column}`}
        />
        <div className="tql-row-actions">
          <button type="button" className="button small" onClick={() => onShow(position)}>
            Show in editor
          </button>
          {stale && <span className="muted small">The query has changed since it ran.</span>}
        </div>
      </div>
    );
  if (status === 422)
    return (
      <div className="tql-problem">
        <ProblemMessage error={error} title="The query was stopped at a limit" />
        <p className="muted small">
          Read less: narrow the time range (
          <code>WHERE timestamp &gt; now() - INTERVAL 1 HOUR</code>
          ), filter on a service, or aggregate before returning rows.
        </p>
      </div>
    );
  if (status === 429)
    return (
      <div className="tql-problem">
        <ProblemMessage error={error} title="Too many queries at once" />
        <p className="muted small">
          Wait for the project's other queries to finish, then run this one again.
        </p>
      </div>
    );
  return (
    <ProblemMessage
      error={error}
      title={status ? `The query failed (error ${status})` : "The query could not be sent"}
    />
  );
}
