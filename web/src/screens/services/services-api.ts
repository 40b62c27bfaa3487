import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ServiceDetail, ServiceList, ServiceMap } from "../../../../src/contracts/services";
import { api, v1 } from "../../api/client";
import type { TimeRange } from "../../lib/time-range";
import { windowQuery } from "../overview/overview-api";

/** Every service that had entry spans in the range, with its figures and series. */
export function useServiceList(projectId: string, range: TimeRange) {
  const query = windowQuery(range);
  return useQuery({
    queryKey: ["services", projectId, "list", query],
    queryFn: ({ signal }) => api<ServiceList>(v1(projectId, "/services"), { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** One service's page: figures, operations, instances, callers and callees, errors. */
export function useServiceDetail(projectId: string, service: string, range: TimeRange) {
  const query = windowQuery(range);
  return useQuery({
    queryKey: ["services", projectId, "detail", service, query],
    queryFn: ({ signal }) =>
      api<ServiceDetail>(v1(projectId, `/services/${encodeURIComponent(service)}`), {
        query,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** The services, databases and external addresses, and the calls between them, in the range. */
export function useServiceMap(projectId: string, range: TimeRange) {
  const query = windowQuery(range);
  return useQuery({
    queryKey: ["services", projectId, "map", query],
    queryFn: ({ signal }) => api<ServiceMap>(v1(projectId, "/service-map"), { query, signal }),
    placeholderData: keepPreviousData,
  });
}
