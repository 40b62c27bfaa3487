import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, v1 } from "../../api/client";
import { Field } from "../../components/ui";
import type { TimeRange } from "../../lib/time-range";

interface TqlResult {
  rows: unknown[][];
}

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
  const options = services.data ?? [];
  const known = service === "" || options.includes(service);
  const filtered = Boolean(service || status || minDuration);

  return (
    <form
      className="toolbar trace-filters"
      aria-label="Filters"
      onSubmit={(e) => e.preventDefault()}
    >
      <Field
        label="Service"
        name="service"
        error={error}
        {...(services.isError ? { hint: "The service list is unavailable" } : {})}
      >
        {(props) => (
          <select
            {...props}
            value={service}
            onChange={(e) => onChange({ service: e.target.value || undefined })}
          >
            <option value="">All services</option>
            {!known && <option value={service}>{service}</option>}
            {options.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Status" name="status" error={error}>
        {(props) => (
          <select
            {...props}
            value={status}
            onChange={(e) => onChange({ status: e.target.value || undefined })}
          >
            <option value="">Any status</option>
            <option value="error">With errors</option>
            <option value="ok">Without errors</option>
          </select>
        )}
      </Field>
      <Field label="Min duration (ms)" name="min_duration" error={error}>
        {(props) => (
          <input
            {...props}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            className="trace-min-duration"
            placeholder="e.g. 500"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") onChange({ min_duration: typed.trim() || undefined });
            }}
          />
        )}
      </Field>
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
