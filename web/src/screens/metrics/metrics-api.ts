import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { MetricNameList, MetricNameView } from "../../../../src/contracts/metric-names";
import type { MetricType } from "../../../../src/contracts/metric-queries";
import { api, v1 } from "../../api/client";
import type { TimeRange } from "../../lib/time-range";

/** The names list asks for this many at most: the explorer shows them all, searchable. */
const NAMES_LIMIT = 1000;

/** GET /v1/metrics/names over the screen's window, narrowed by `q` (server-side search). */
export function useMetricNames(projectId: string, range: TimeRange, q: string) {
  return useQuery({
    queryKey: ["metric-names", projectId, range.from, range.to, q],
    queryFn: ({ signal }) =>
      api<MetricNameList>(v1(projectId, "/metrics/names"), {
        query: { from: range.from, to: range.to, q: q || undefined, limit: NAMES_LIMIT },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** The chosen metric's entry (its keys and unit), found by its exact name and type. */
export function useMetricName(
  projectId: string,
  range: TimeRange,
  name: string | undefined,
  type: MetricType | undefined,
) {
  return useQuery({
    queryKey: ["metric-name", projectId, range.from, range.to, name, type],
    enabled: Boolean(name && type),
    queryFn: async ({ signal }): Promise<MetricNameView | null> => {
      const list = await api<MetricNameList>(v1(projectId, "/metrics/names"), {
        query: { from: range.from, to: range.to, q: name, type, limit: NAMES_LIMIT },
        signal,
      });
      return list.data.find((m) => m.name === name && m.type === type) ?? null;
    },
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
