import type { MonitorView } from "../../../../src/contracts/monitors";
import { RelativeTime } from "../../components/relative-time";
import { CopyButton } from "../../components/ui";

/** What a job runs to report to a heartbeat: one curl line per kind of ping (docs/heartbeats.md). */
export function pingCommands(pingUrl: string): { what: string; command: string }[] {
  const curl = "curl -fsS -m 10 --retry 3";
  return [
    { what: "The job succeeded", command: `${curl} -o /dev/null ${pingUrl}` },
    {
      what: "The job started (optional: the next ping is timed from here)",
      command: `${curl} -o /dev/null ${pingUrl}/start`,
    },
    {
      what: "The job failed, with its output (kept up to 10 KB)",
      command: `${curl} -o /dev/null --data-binary @job.log ${pingUrl}/fail`,
    },
    {
      what: "By the job's exit code (0 succeeded, 1–255 failed)",
      command: `your-job.sh; ${curl} -o /dev/null ${pingUrl}/$?`,
    },
  ];
}

/**
 * A heartbeat's secret ping URL with a copy button, when it was last pinged, and the curl lines
 * for a success, a start, a failure and an exit code.
 */
export function PingInstructions({
  monitor,
}: {
  monitor: Pick<MonitorView, "pingUrl" | "lastPingAt" | "period" | "grace">;
}) {
  const { pingUrl } = monitor;
  if (!pingUrl) return null;
  return (
    <section className="card mon-ping" aria-label="Ping URL">
      <h2>Ping URL</h2>
      <p className="muted small">
        Your job calls this URL (GET, POST or HEAD) every {monitor.period}. When no ping comes
        within {monitor.period} and {monitor.grace} of grace after the last, the check fails. Keep
        it secret: anyone with it can ping.
      </p>
      <div className="mon-ping-url">
        <code className="mono mon-url" data-testid="ping-url">
          {pingUrl}
        </code>
        <CopyButton text={pingUrl} label="Copy URL" />
      </div>
      <p className="small">
        Last ping:{" "}
        {monitor.lastPingAt ? <RelativeTime at={monitor.lastPingAt} /> : <span>never</span>}
      </p>
      <ul className="mon-ping-commands">
        {pingCommands(pingUrl).map(({ what, command }) => (
          <li key={what}>
            <span className="small">{what}</span>
            <div className="mon-ping-command">
              <pre className="mono">{command}</pre>
              <CopyButton text={command} label="Copy" />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
