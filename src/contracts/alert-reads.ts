import { z } from "zod";
import { ALERT_SEVERITIES } from "./alert-catalog.js";
import { AlertEventView, AlertRuleView, SeriesStateView } from "./alerts.js";
import { countsOf } from "./counts.js";

// The /v1/alerts views: a rule seen as an alert, with its recent events, and the dashboard.

/** How many rules the dashboard ranks by fires. */
export const ALERTS_DASHBOARD_TOP = 10;

const RecentEvents = z
  .array(AlertEventView)
  .describe(
    "The latest fire and resolve events, newest first. With a window: those in it, and the fire that began a series' firing still going when the window began",
  );

/** An alert as /v1/alerts lists it: the rule, its state and thresholds, recent fires/resolves. */
export const AlertSummary = AlertRuleView.extend({ recentEvents: RecentEvents }).meta({
  id: "AlertSummary",
});
export type AlertSummary = z.infer<typeof AlertSummary>;

export const AlertDetail = AlertRuleView.extend({
  channels: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })),
  series: z.array(SeriesStateView).describe("Every series the rule tracks and its state"),
  recentEvents: z.array(AlertEventView).describe("The latest events of every kind, newest first"),
}).meta({ id: "AlertDetail" });
export type AlertDetail = z.infer<typeof AlertDetail>;

export const AlertsDashboard = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number().int(),
    fires: z.number().int().describe("Series that fired in the window"),
    resolves: z.number().int().describe("Series that resolved in the window"),
    firingNow: z.number().int().describe("Series firing now"),
    rules: z
      .object({
        total: z.number().int(),
        active: z.number().int(),
        muted: z.number().int(),
        failing: z.number().int(),
      })
      .describe(
        "Rules now: all, active (a series firing, not muted), muted, and failing (their evaluations fail, whatever their status)",
      ),
    meanTimeToResolveMs: z
      .number()
      .int()
      .nullable()
      .describe("Mean time from fire to resolve of the resolves in the window; null if none"),
    series: z
      .array(z.object({ time: z.string(), fires: z.number().int(), resolves: z.number().int() }))
      .describe("Every bucket of the window, zero-filled"),
    firesBySeverity: countsOf(ALERT_SEVERITIES),
    topRules: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          severity: z.enum(ALERT_SEVERITIES),
          fires: z.number().int(),
        }),
      )
      .describe(`The ${ALERTS_DASHBOARD_TOP} rules that fired most in the window`),
  })
  .meta({ id: "AlertsDashboard" });
export type AlertsDashboard = z.infer<typeof AlertsDashboard>;
