import { useState } from "react";
import { Link } from "wouter";
import { QueryView } from "../../components/feedback";
import { CopyButton, Drawer, KeyValues, StateBadge } from "../../components/ui";
import { formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { Highlighted } from "./highlighted";
import { LogContextSection } from "./log-context";
import { levelTone, useLog } from "./logs-api";

/**
 * One record in full: message, ids, attributes, resource; the records around it (context);
 * links to its trace and its trace's logs.
 */
export function LogDrawer({
  projectId,
  logId,
  terms,
  onClose,
  onSelect,
  onTraceLogs,
}: {
  projectId: string;
  logId: string;
  /** The search's terms, marked in the message. */
  terms: readonly string[];
  onClose: () => void;
  /** Opens another record (one of the context's). */
  onSelect: (id: string) => void;
  onTraceLogs: (traceId: string) => void;
}) {
  const log = useLog(projectId, logId);
  const [contextOpen, setContextOpen] = useState(false);
  return (
    <Drawer title="Log record" onClose={onClose}>
      <QueryView query={log} loadingLabel="Loading the record…">
        {(record) => (
          <div className="log-detail">
            <p className="log-detail-meta">
              <StateBadge state={record.level} tone={levelTone(record.level)} />{" "}
              <time dateTime={record.timestamp}>{formatTime(record.timestamp, true)}</time>
              {" · "}
              <strong>{record.service}</strong>
              {" · "}
              <span className="muted">{record.source}</span>
            </p>
            <section aria-labelledby="log-body">
              <div className="log-detail-heading">
                <h3 id="log-body">Message</h3>
                <CopyButton text={record.message} />
              </div>
              <pre className="log-body">
                <Highlighted text={record.message} terms={terms} />
              </pre>
            </section>
            <LogContextSection
              projectId={projectId}
              logId={record.id}
              terms={terms}
              open={contextOpen}
              onOpen={setContextOpen}
              onSelect={onSelect}
            />
            {record.trace && (
              <div className="log-detail-actions">
                <Link
                  className="button primary small"
                  href={`~${projectPath(projectId, "traces", record.trace.traceId)}`}
                >
                  Open trace
                </Link>
                <button
                  type="button"
                  className="button small"
                  onClick={() => record.trace && onTraceLogs(record.trace.traceId)}
                >
                  All logs of this trace
                </button>
              </div>
            )}
            <section aria-labelledby="log-ids">
              <h3 id="log-ids">Record</h3>
              <KeyValues
                entries={[
                  ["id", record.id],
                  ["timestamp", record.timestamp],
                  ["observed", record.observedTimestamp],
                  ["severity", `${record.severityText || "—"} (${record.severityNumber})`],
                  ["trace id", record.traceId ?? "—"],
                  ["span id", record.spanId ?? "—"],
                  ["session id", record.sessionId ?? "—"],
                  ["user id", record.userId ?? "—"],
                  [
                    "scope",
                    record.scope.name
                      ? `${record.scope.name}${record.scope.version ? ` ${record.scope.version}` : ""}`
                      : "—",
                  ],
                ]}
              />
            </section>
            <section aria-labelledby="log-attributes">
              <h3 id="log-attributes">Attributes</h3>
              <KeyValues entries={sorted(record.attributes)} />
            </section>
            <section aria-labelledby="log-resource">
              <h3 id="log-resource">Resource</h3>
              <KeyValues entries={sorted(record.resource)} />
            </section>
          </div>
        )}
      </QueryView>
    </Drawer>
  );
}

const sorted = (map: Record<string, string>): [string, unknown][] =>
  Object.entries(map).sort(([a], [b]) => a.localeCompare(b));
