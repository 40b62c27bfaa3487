import { ProblemMessage } from "../../../components/feedback";
import { formatRelative } from "../../../lib/format";
import { isConflict } from "../dashboards-api";

/**
 * What became of the last save: a stale version (someone else saved since this was opened)
 * with its two ways out, never a silent overwrite; or the server's refusal with the fields it
 * names.
 */
export function SaveProblem({
  error,
  pending,
  onReload,
  onOverwrite,
}: {
  error: unknown;
  pending: boolean;
  onReload: () => void;
  onOverwrite: () => void;
}) {
  if (!error) return null;
  if (!isConflict(error))
    return <ProblemMessage error={error} title="The dashboard was not saved" />;
  return (
    <div className="problem dse-conflict" role="alert">
      <strong>This dashboard was changed by someone else since you opened it.</strong>
      <p>
        Nothing was saved. Reload it to see their version (your changes here are dropped), or
        overwrite theirs with yours.
      </p>
      <div className="tql-row-actions">
        <button type="button" className="button" disabled={pending} onClick={onReload}>
          Reload their version
        </button>
        <button type="button" className="button danger" disabled={pending} onClick={onOverwrite}>
          {pending ? "Saving…" : "Overwrite with mine"}
        </button>
      </div>
    </div>
  );
}

/** Unsaved edits this tab kept from an earlier visit, offered back. */
export function RestoreDraft({
  at,
  version,
  currentVersion,
  onRestore,
  onDrop,
}: {
  at: string;
  version: number;
  currentVersion: number;
  onRestore: () => void;
  onDrop: () => void;
}) {
  return (
    <div className="notice dse-restore" role="status">
      <strong>Unsaved changes from {formatRelative(at)}</strong>{" "}
      {version === currentVersion
        ? "were kept in this tab."
        : `were made on version ${version}; the dashboard has been saved since (version ${currentVersion}). Saving them will ask before overwriting.`}{" "}
      <button type="button" className="button small primary" onClick={onRestore}>
        Restore them
      </button>{" "}
      <button type="button" className="button small" onClick={onDrop}>
        Drop them
      </button>
    </div>
  );
}
