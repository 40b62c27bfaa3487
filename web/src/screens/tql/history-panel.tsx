import { Empty } from "../../components/feedback";
import { RelativeTime } from "../../components/relative-time";
import { formatDuration, formatNumber } from "../../lib/format";
import type { HistoryEntry } from "./history";

/** The project's last runs on this browser; a click loads the query into the editor. */
export function HistoryPanel({
  entries,
  onLoad,
  onClear,
}: {
  entries: HistoryEntry[];
  onLoad: (query: string) => void;
  onClear: () => void;
}) {
  if (entries.length === 0)
    return (
      <Empty title="No runs yet">
        The queries you run in this project are kept here, on this browser only.
      </Empty>
    );
  return (
    <>
      <ul className="tql-list" aria-label="Query history">
        {entries.map((entry) => (
          <li key={`${entry.at}-${entry.query}`} className="tql-saved-item">
            <button type="button" className="tql-load" onClick={() => onLoad(entry.query)}>
              <code className="tql-snippet">{entry.query}</code>
              <span className={`small ${entry.ok ? "muted" : "tql-failed"}`}>
                <RelativeTime at={entry.at} />
                {" · "}
                {entry.ok
                  ? `${formatNumber(entry.rowCount ?? 0)} rows in ${formatDuration(entry.durationMs ?? 0)}`
                  : `Failed: ${entry.error ?? "error"}`}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="button small" onClick={onClear}>
        Clear history
      </button>
    </>
  );
}
