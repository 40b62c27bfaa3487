// GET /v1/metrics/names (docs/read-api.md "Metric names"): the metrics a project sent in a
// window, with what the metrics explorer needs to chart one (type, temporality, attribute keys).
import { z } from "zod";
import { METRIC_TYPES } from "./metric-queries.js";
import { listOf } from "./pagination.js";

/** Attribute keys listed per metric, at most (point and resource keys each). */
export const MAX_METRIC_KEYS = 100;

export const MetricNameView = z
  .object({
    name: z.string(),
    type: z.enum(METRIC_TYPES),
    unit: z.string().describe("UCUM unit as sent (`s`, `By`, `1`), '' when none"),
    description: z.string(),
    temporality: z
      .enum(["delta", "cumulative", "unspecified"])
      .describe("Of sums and histograms; gauges and summaries are `unspecified`"),
    monotonic: z.boolean().describe("A sum that only increases (a counter)"),
    attributeKeys: z
      .array(z.string())
      .describe(`Data point attribute keys, sorted (at most ${MAX_METRIC_KEYS})`),
    resourceKeys: z
      .array(z.string())
      .describe(`Resource attribute keys, sorted (at most ${MAX_METRIC_KEYS})`),
    services: z.array(z.string()).describe("Services that sent it, sorted (at most 100)"),
    series: z.number().int().describe("Distinct series (point attributes, resource and service)"),
    points: z.number().int().describe("Data points in the window"),
    lastSeen: z.string().describe("Time of the latest point (ISO 8601)"),
  })
  .meta({ id: "MetricName" });
export type MetricNameView = z.infer<typeof MetricNameView>;

export const MetricNameList = listOf(MetricNameView).meta({ id: "MetricNameList" });
export type MetricNameList = z.infer<typeof MetricNameList>;
