import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import type { SessionDetail } from "../../../../src/contracts/browser-sessions";
import { api, v1 } from "../../api/client";
import { QueryView } from "../../components/feedback";
import { CopyButton, KeyValues, PageHeader } from "../../components/ui";
import { formatDuration, formatNumber, formatTime } from "../../lib/format";
import { useProject } from "../project-context";
import { lastListSearch } from "./list";
import { Timeline } from "./timeline";

/** One session: who, where from, which pages, and the timeline of everything it sent. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const { projectId } = useProject();
  const session = useQuery({
    queryKey: ["session", projectId, sessionId],
    queryFn: ({ signal }) =>
      api<SessionDetail>(v1(projectId, `/sessions/${encodeURIComponent(sessionId)}`), { signal }),
  });
  return (
    <>
      <p>
        <Link href={`/${lastListSearch}`}>← Sessions</Link>
      </p>
      <QueryView query={session} loadingLabel="Loading the session…">
        {(s) => (
          <>
            <PageHeader
              title={`Session ${s.id}`}
              actions={<CopyButton text={s.id} label="Copy id" />}
            >
              <p className="muted">
                {formatTime(s.startedAt)} · {formatDuration(s.durationMs)} ·{" "}
                {s.userId ? `user ${s.userId}` : "anonymous user"}
              </p>
            </PageHeader>
            <div className="grid sessions-stats">
              <Stat label="Pages" value={formatNumber(s.pageCount)} />
              <Stat label="Spans" value={formatNumber(s.counts.spans)} />
              <Stat
                label="Errors"
                value={formatNumber(s.counts.errors)}
                bad={s.counts.errors > 0}
              />
              <Stat label="AI calls" value={formatNumber(s.counts.aiSpans)} />
              <Stat label="Logs" value={formatNumber(s.counts.logs)} />
            </div>
            <div className="split">
              <section className="card" aria-labelledby="session-about">
                <h2 id="session-about">About</h2>
                <KeyValues
                  entries={[
                    ["User", s.userId ?? "anonymous"],
                    ["Started", formatTime(s.startedAt)],
                    ["Last seen", formatTime(s.lastSeen)],
                    ["Browser", s.browser ? `${s.browser} ${s.browserVersion ?? ""}`.trim() : "—"],
                    ["OS", s.os ?? "—"],
                    ["Device", s.device ?? "—"],
                    ["Country", s.country ?? "—"],
                    ["Referrer", s.referrer ?? "—"],
                    ["Services", s.services.join(", ") || "—"],
                    ["User agent", s.userAgent ?? "—"],
                  ]}
                />
              </section>
              <section className="card" aria-labelledby="session-pages">
                <h2 id="session-pages">Pages visited</h2>
                {s.pages.length === 0 ? (
                  <p className="muted">No page was named (page.path or page.url).</p>
                ) : (
                  <ul className="sessions-pages">
                    {s.pages.map((p) => (
                      <li key={p}>
                        <code>{p}</code>
                        {p === s.entryPage && <span className="badge badge-info">entry</span>}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </div>
            <Timeline session={s} />
          </>
        )}
      </QueryView>
    </>
  );
}

function Stat({ label, value, bad = false }: { label: string; value: string; bad?: boolean }) {
  return (
    <div className="stat">
      <div className="label">{label}</div>
      <div className={`value${bad ? " sessions-bad" : ""}`}>{value}</div>
    </div>
  );
}
