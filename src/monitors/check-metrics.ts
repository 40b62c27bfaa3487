import type {
  KeyValue,
  Metric,
  MetricsRequest,
  NumberDataPoint,
} from "../ingest/otlp/otlp-messages.js";
import type { RecordedCheck } from "./check-recording.js";
import { describeFailure } from "./check-recording.js";

// Every recorded check is also telemetry of its project (docs/monitors.md, "Checks as
// metrics"): gauges in the `metrics` table, so dashboards and alerts chart uptime with TQL.

/** The service.name the points are written under. */
export const MONITOR_METRICS_SERVICE = "vigil-monitors";
/** The instrumentation scope of the points. */
export const MONITOR_METRICS_SCOPE = "vigil.monitors";
export const MONITOR_METRIC_NAMES = {
  /** 1 when the check passed, 0 when it failed. */
  up: "vigil.monitor.up",
  /** The check's total request time (the sum of its steps), in ms. */
  duration: "vigil.monitor.duration",
  /** Each executed step's request time, in ms, with `step.name` and its status. */
  stepDuration: "vigil.monitor.step.duration",
  /** Days until the certificate expires: tls checks and https steps, with `tls.subject`. */
  tlsDaysLeft: "vigil.monitor.tls.days_left",
} as const;

/** A failure reason is cut to this many characters in the `check.failure` attribute. */
const MAX_REASON_LENGTH = 500;

const kv = (values: Record<string, string | number>): KeyValue[] =>
  Object.entries(values).map(([key, value]) => ({
    key,
    value: typeof value === "number" ? { intValue: value } : { stringValue: value },
  }));

const nanos = (iso: string): string => (BigInt(Date.parse(iso)) * 1_000_000n).toString();

/** The attributes every point of a check carries. */
function checkAttributes(check: RecordedCheck): Record<string, string> {
  const attributes: Record<string, string> = {
    "monitor.id": check.monitorId,
    "monitor.name": check.monitor.name,
    "monitor.type": check.monitor.type,
    location: check.monitor.location,
    "check.trigger": check.trigger,
  };
  if (!check.result.passed)
    attributes["check.failure"] = describeFailure(check.result).reason.slice(0, MAX_REASON_LENGTH);
  return attributes;
}

type MetricKey = keyof typeof MONITOR_METRIC_NAMES;

/** The points of one check: up, duration, and one step duration per executed step. */
function checkPoints(check: RecordedCheck): Record<MetricKey, NumberDataPoint[]> {
  const { result } = check;
  const timeUnixNano = nanos(result.startedAt);
  const attributes = checkAttributes(check);
  const gauge = (value: number, extra: Record<string, string | number> = {}): NumberDataPoint => ({
    timeUnixNano,
    asDouble: value,
    attributes: kv({ ...attributes, ...extra }),
  });
  const steps = result.steps.flatMap((step, index) =>
    step.durationMs === null
      ? []
      : [
          gauge(step.durationMs, {
            "step.index": index,
            "step.name": step.name,
            "step.status": step.status,
            ...(step.statusCode === null ? {} : { "http.response.status_code": step.statusCode }),
          }),
        ],
  );
  const certificates = result.steps.flatMap((step, index) =>
    step.tls
      ? [
          gauge(step.tls.daysLeft, {
            "step.index": index,
            "step.name": step.name,
            "tls.subject": step.tls.subject,
            "tls.issuer": step.tls.issuer,
          }),
        ]
      : [],
  );
  return {
    up: [gauge(result.passed ? 1 : 0)],
    duration: [gauge(result.durationMs)],
    stepDuration: steps,
    tlsDaysLeft: certificates,
  };
}

const UNITS: Record<MetricKey, string> = {
  up: "1",
  duration: "ms",
  stepDuration: "ms",
  tlsDaysLeft: "d",
};
const DESCRIPTIONS: Record<MetricKey, string> = {
  up: "1 when the monitor's check passed, 0 when it failed",
  duration: "The check's total request time",
  stepDuration: "One step's request time",
  tlsDaysLeft: "Days until the certificate of a tls check or an https step expires",
};

/** One OTLP metrics request holding the points of several checks of one project. */
export function checkMetricsRequest(checks: readonly RecordedCheck[]): MetricsRequest {
  const keys = Object.keys(MONITOR_METRIC_NAMES) as MetricKey[];
  const all = checks.map(checkPoints);
  const metrics: Metric[] = keys.flatMap((key) => {
    const dataPoints = all.flatMap((points) => points[key]);
    if (dataPoints.length === 0) return [];
    return [
      {
        name: MONITOR_METRIC_NAMES[key],
        description: DESCRIPTIONS[key],
        unit: UNITS[key],
        gauge: { dataPoints },
      },
    ];
  });
  return {
    resourceMetrics: [
      {
        resource: { attributes: kv({ "service.name": MONITOR_METRICS_SERVICE }) },
        scopeMetrics: [{ scope: { name: MONITOR_METRICS_SCOPE }, metrics }],
      },
    ],
  };
}
