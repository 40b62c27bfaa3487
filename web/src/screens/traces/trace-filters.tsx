import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { TqlResult } from "../../../../src/contracts/tql";
import { api, v1 } from "../../api/client";
import { FilterSelect } from "../../components/list-filters";
import { TextField } from "../../components/text-field";
import type { TimeRange } from "../../lib/time-range";

/** The services that sent spans in the range, for the service filter (one TQL query). */
function useTraceServices(projectId: string, range: TimeRange) {
  const fromMs = Date.parse(range.from);
  const toMs = Date.parse(range.to);
  return useQuery({
    queryKey: ["trace-services", projectId, fromMs, toMs],
    queryFn: ({ signal }) =>
      api<TqlResult>(v1(projectId, "/tql"), {
        method: "POST",
        signal,
        body: {
          query: `SELECT service_name AS service FROM traces
            WHERE timestamp >= fromUnixTimestamp64Milli(${fromMs})
              AND timestamp < fromUnixTimestamp64Milli(${toMs})
            GROUP BY service ORDER BY service LIMIT 500`,
        },
      }),
    select: (result) => result.rows.map((row) => String(row[0])),
    staleTime: 60_000,
  });
}

const TRACE_STATUSES = [
  { key: "error", label: "With errors" },
  { key: "ok", label: "Without errors" },
];

/** How long to wait after the last keystroke before a typed filter goes to the URL. */
const TYPING_MS = 400;

/** Service, status and minimum duration; the server's message shows beside a rejected field. */
export function TraceFilters({
  projectId,
  range,
  error,
  service,
  status,
  minDuration,
  onChange,
}: {
  projectId: string;
  range: TimeRange;
  error: unknown;
  service: string;
  status: string;
  minDuration: string;
  onChange: (changes: Record<string, string | undefined>) => void;
}) {
  const services = useTraceServices(projectId, range);
  const [typed, setTyped] = useState(minDuration);
  // The URL wins when it changes from elsewhere (back, a cleared filter, a shared link).
  useEffect(() => setTyped(minDuration), [minDuration]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text schedules an update
  useEffect(() => {
    if (typed === minDuration) return;
    const timer = setTimeout(
      () => onChange({ min_duration: typed.trim() || undefined }),
      TYPING_MS,
    );
    return () => clearTimeout(timer);
  }, [typed]);
  const filtered = Boolean(service || status || minDuration);

  return (
    <form
      className="toolbar trace-filters"
      aria-label="Filters"
      onSubmit={(e) => e.preventDefault()}
    >
      <FilterSelect
        label="Service"
        name="service"
        error={error}
        {...(services.isError ? { hint: "The service list is unavailable" } : {})}
        value={service}
        any="All services"
        options={services.data ?? []}
        onChange={(v) => onChange({ service: v || undefined })}
      />
      <FilterSelect
        label="Status"
        name="status"
        error={error}
        value={status}
        any="Any status"
        options={TRACE_STATUSES}
        onChange={(v) => onChange({ status: v || undefined })}
      />
      <TextField
        label="Min duration (ms)"
        name="min_duration"
        error={error}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        className="trace-min-duration"
        placeholder="e.g. 500"
        value={typed}
        onChange={setTyped}
        onKeyDown={(e) => {
          if (e.key === "Enter") onChange({ min_duration: typed.trim() || undefined });
        }}
      />
      {filtered && (
        <button
          type="button"
          className="button small"
          onClick={() => {
            setTyped("");
            onChange({ service: undefined, status: undefined, min_duration: undefined });
          }}
        >
          Clear filters
        </button>
      )}
    </form>
  );
}
