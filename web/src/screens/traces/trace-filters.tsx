import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { TqlResult } from "../../../../src/contracts/tql";
import { SPAN_KINDS } from "../../../../src/contracts/traces";
import { api, v1 } from "../../api/client";
import { filtersParam } from "../../components/filters/filter-model";
import { FilterSelect } from "../../components/list-filters";
import { TextField } from "../../components/text-field";
import type { TimeRange } from "../../lib/time-range";
import { AttributeFilters } from "./attribute-filters";
import { isFiltered, SELECTION_PARAMS, type TraceSelection } from "./trace-selection";

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

const SPAN_KIND_OPTIONS = SPAN_KINDS.map((kind) => ({ key: kind, label: kind }));

/** How long to wait after the last keystroke before a typed filter goes to the URL. */
const TYPING_MS = 400;

/** A duration bound typed in ms: it goes to the URL once typing pauses, or on Enter. */
function DurationField({
  label,
  name,
  value,
  error,
  onChange,
}: {
  label: string;
  name: "min_duration" | "max_duration";
  value: string;
  error: unknown;
  onChange: (changes: Record<string, string | undefined>) => void;
}) {
  const [typed, setTyped] = useState(value);
  // The URL wins when it changes from elsewhere (back, a cleared filter, a shared link).
  useEffect(() => setTyped(value), [value]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text schedules an update
  useEffect(() => {
    if (typed === value) return;
    const timer = setTimeout(() => onChange({ [name]: typed.trim() || undefined }), TYPING_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  return (
    <TextField
      label={label}
      name={name}
      error={error}
      type="number"
      inputMode="numeric"
      min={0}
      step={1}
      className="trace-min-duration"
      placeholder={name === "min_duration" ? "e.g. 500" : "e.g. 2000"}
      value={typed}
      onChange={setTyped}
      onKeyDown={(e) => {
        if (e.key === "Enter") onChange({ [name]: typed.trim() || undefined });
      }}
    />
  );
}

/**
 * Service, status, span kind, duration range and span filters; the server's message shows
 * beside a rejected field. Status and durations are the whole trace's in the list (and the
 * spans' in the chart and the groups).
 */
export function TraceFilters({
  projectId,
  range,
  error,
  selection,
  onChange,
}: {
  projectId: string;
  range: TimeRange;
  error: unknown;
  selection: TraceSelection;
  onChange: (changes: Record<string, string | undefined>) => void;
}) {
  const services = useTraceServices(projectId, range);
  const { service, status, spanKind, minDuration, maxDuration, filters } = selection;

  return (
    <div className="trace-filter-bar">
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
        <FilterSelect
          label="Span kind"
          name="span_kind"
          error={error}
          value={spanKind}
          any="Any kind"
          options={SPAN_KIND_OPTIONS}
          onChange={(v) => onChange({ span_kind: v || undefined })}
        />
        <DurationField
          label="Min duration (ms)"
          name="min_duration"
          value={minDuration}
          error={error}
          onChange={onChange}
        />
        <DurationField
          label="Max duration (ms)"
          name="max_duration"
          value={maxDuration}
          error={error}
          onChange={onChange}
        />
        {isFiltered(selection) && (
          <button
            type="button"
            className="button small"
            onClick={() =>
              onChange(Object.fromEntries(SELECTION_PARAMS.map((key) => [key, undefined])))
            }
          >
            Clear filters
          </button>
        )}
      </form>
      <AttributeFilters
        filters={filters}
        onChange={(next) => onChange({ filters: filtersParam(next) })}
      />
    </div>
  );
}
