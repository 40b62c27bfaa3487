import type { ComponentType } from "react";
import type { MonitorType } from "../../../../src/contracts/monitor-catalog";
import type { MonitorView } from "../../../../src/contracts/monitors";
import { DnsFields } from "./dns-fields";
import type { Draft } from "./draft";
import { HeartbeatFields } from "./heartbeat-fields";
import { HttpFields } from "./http-fields";
import { KIND_DRAFTS, type KindDraft } from "./kind-drafts";
import type { KindFieldsProps } from "./kind-fields";
import { DnsSummary, HeartbeatSummary, TcpSummary, TlsSummary } from "./kind-summaries";
import { frequencyLabel } from "./state";
import { StepsSummary } from "./steps-summary";
import { TcpFields } from "./tcp-fields";
import { TlsFields } from "./tls-fields";

/**
 * What the dashboard does differently for each kind of monitor: the type picker's option and
 * hint, its own fields in the form, its mapping to and from the API (kind-drafts.ts), how its
 * cadence reads, and its configuration tab. Everything else (settings, channels, results,
 * incidents) is the same for every kind.
 */
export interface MonitorKindView {
  /** The type picker's option. */
  option: string;
  /** What the kind checks, under the picker. */
  hint: string;
  /** Checked every `frequency` with a timeout (every kind but heartbeat, which waits for pings). */
  scheduled: boolean;
  /** Has a check to run on request ("Run now"); a heartbeat waits for its pings. */
  runnable: boolean;
  draft: KindDraft;
  Fields: ComponentType<KindFieldsProps>;
  Summary: ComponentType<{ monitor: MonitorView }>;
  /** What runs while the monitor is active, and what pausing stops. */
  activity: Record<MonitorView["status"], string>;
  /** What brings a first check, when the results are empty. */
  waiting: string;
  /** How often it is checked, in the list and on its page. */
  cadence(monitor: MonitorView): string;
  /** The picker's option is disabled for this draft (an api monitor has exactly one step). */
  unavailable?(draft: Draft): boolean;
}

const everyFrequency = (monitor: MonitorView) =>
  monitor.frequency ? `Every ${frequencyLabel(monitor.frequency)}` : "Not scheduled";

const scheduled = {
  scheduled: true,
  runnable: true,
  cadence: everyFrequency,
  activity: { active: "Checks running", paused: "Paused: no scheduled checks" },
  waiting: "Run the monitor now or widen the range.",
} as const;

export const MONITOR_KINDS: Record<MonitorType, MonitorKindView> = {
  api: {
    ...scheduled,
    option: "API endpoint (one request)",
    hint: "One HTTP request, with assertions on its status, time, body, JSON and headers.",
    draft: KIND_DRAFTS.api,
    Fields: HttpFields,
    Summary: StepsSummary,
    unavailable: (draft) => draft.steps.length > 1,
  },
  flow: {
    ...scheduled,
    option: "Multi-step flow",
    hint: "Up to 20 HTTP requests in order; later steps use values extracted from earlier ones.",
    draft: KIND_DRAFTS.flow,
    Fields: HttpFields,
    Summary: StepsSummary,
  },
  tcp: {
    ...scheduled,
    option: "TCP port",
    hint: "Connects to a host and port within the timeout; optionally sends a text and expects one back.",
    draft: KIND_DRAFTS.tcp,
    Fields: TcpFields,
    Summary: TcpSummary,
  },
  dns: {
    ...scheduled,
    option: "DNS record",
    hint: "Resolves a name (A, AAAA, CNAME, MX or TXT) and asserts on the answers.",
    draft: KIND_DRAFTS.dns,
    Fields: DnsFields,
    Summary: DnsSummary,
  },
  tls: {
    ...scheduled,
    option: "TLS certificate",
    hint: "Checks a server's certificate: a trusted chain, the host name, and the days left before it expires.",
    draft: KIND_DRAFTS.tls,
    Fields: TlsFields,
    Summary: TlsSummary,
  },
  heartbeat: {
    scheduled: false,
    runnable: false,
    option: "Heartbeat (a job pings a URL)",
    hint: "A cron job or worker calls a secret URL every period; a missed or failed ping fails the check.",
    draft: KIND_DRAFTS.heartbeat,
    Fields: HeartbeatFields,
    Summary: HeartbeatSummary,
    cadence: (monitor) => `Ping every ${monitor.period} (+${monitor.grace})`,
    activity: { active: "Waiting for pings", paused: "Paused: pings are ignored" },
    waiting: "Ping its URL or widen the range.",
  },
};
