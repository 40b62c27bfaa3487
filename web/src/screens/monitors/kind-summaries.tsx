import { DNS_ASSERTION_TYPES } from "../../../../src/contracts/monitor-catalog";
import type { MonitorView } from "../../../../src/contracts/monitors";
import { KeyValues } from "../../components/ui";
import { operatorLabel } from "./assertion-builder";

// The configuration tab of the kinds that are not HTTP steps: what each check connects to,
// resolves or expects (api and flow: steps-summary.tsx).

type SummaryProps = { monitor: MonitorView };

const text = (value: string | undefined, none: string) =>
  value === undefined || value === "" ? none : JSON.stringify(value);

export function TcpSummary({ monitor }: SummaryProps) {
  return (
    <KeyValues
      entries={[
        ["Host", monitor.host ?? ""],
        ["Port", String(monitor.port ?? "")],
        ["Sends", text(monitor.send, "nothing")],
        ["Expects", text(monitor.expect, "nothing: connecting is enough")],
      ]}
    />
  );
}

export function DnsSummary({ monitor }: SummaryProps) {
  const assertions = monitor.assertions ?? [];
  return (
    <>
      <KeyValues
        entries={[
          ["Domain", monitor.domain ?? ""],
          ["Record type", monitor.recordType ?? ""],
          ["Resolver", monitor.resolver || "the system's"],
        ]}
      />
      <h3>Assertions</h3>
      {assertions.length === 0 ? (
        <p className="small">At least one answer.</p>
      ) : (
        <ul className="mon-assert-list">
          {assertions.map((a, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: stored assertions shown in order; they may repeat
            <li key={`${i}-${a.type}`}>
              {DNS_ASSERTION_TYPES[a.type].label} {operatorLabel(a.operator)} <code>{a.value}</code>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function TlsSummary({ monitor }: SummaryProps) {
  return (
    <KeyValues
      entries={[
        ["Host", monitor.host ?? ""],
        ["Port", String(monitor.port ?? "")],
        ["Server name", monitor.servername || "the host"],
        ["Minimum days left", String(monitor.minDaysLeft ?? "")],
        ["Trusted CAs", monitor.ca ? "the PEM certificates given" : "the system's"],
      ]}
    />
  );
}

export function HeartbeatSummary({ monitor }: SummaryProps) {
  return (
    <KeyValues
      entries={[
        ["Period", monitor.period ?? ""],
        ["Grace", monitor.grace ?? ""],
        ["Missed after", `no ping for ${monitor.period} + ${monitor.grace}`],
      ]}
    />
  );
}
