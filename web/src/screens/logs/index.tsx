import { type FormEvent, useCallback, useEffect, useState } from "react";
import { Link } from "wouter";
import { LOG_LEVELS } from "../../../../src/contracts/logs";
import { SOURCES as LOG_SOURCES } from "../../../../src/contracts/telemetry-sources";
import { ProblemMessage } from "../../components/feedback";
import { Field, PageHeader, TimeRangePicker } from "../../components/ui";
import { formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useTimeRange } from "../../lib/time-range";
import { useUrlParam } from "../../lib/url-state";
import { useProject } from "../project-context";
import { TAIL_INTERVAL_MS, useLiveTail } from "./live-tail";
import { LogDrawer } from "./log-drawer";
import { LogList } from "./log-list";
import { type LogFilters, useLogFilters, useLogPages, useLogServices } from "./logs-api";
import "./logs.css";
import { FilterSelect } from "../../components/list-filters";
import { TextField } from "../../components/text-field";

/**
 * Log explorer: full-text search (words and "quoted phrases"), level/source/service/trace filters
 * and the time range, all in the URL; the records as an endless virtualized list; a record's
 * detail in a drawer (`log=` in the URL); and a live tail that polls for newer records.
 */
export function Area() {
  const { projectId } = useProject();
  const [filters, setParams] = useLogFilters();
  // The session's range, like every screen; a link to a trace's logs names the window around it.
  const [range, setRange] = useTimeRange();
  const [selected, setSelected] = useUrlParam("log");
  const [liveParam, setLive] = useUrlParam("live");
  const live = liveParam === "1" && range.key !== "custom";
  // Stable, so the drawer keeps its focus while the live tail re-renders the screen.
  const closeDrawer = useCallback(() => setSelected(undefined), [setSelected]);

  // The list covers a window fixed when its filters were chosen, so its pages stay stable while
  // records keep arriving; the live tail (or Refresh) brings what came after.
  const listKey = JSON.stringify([projectId, filters, range.key, range.key === "custom" && range]);
  const [anchor, setAnchor] = useState({ key: listKey, at: Date.now() });
  if (anchor.key !== listKey) setAnchor({ key: listKey, at: Date.now() });
  const listWindow =
    range.key === "custom"
      ? { from: range.from, to: range.to }
      : {
          from: new Date(anchor.at - range.ms).toISOString(),
          to: new Date(anchor.at).toISOString(),
        };
  const pages = useLogPages(projectId, filters, listWindow);
  const tail = useLiveTail(projectId, filters, Date.parse(listWindow.to), live);
  const services = useLogServices(projectId, {
    from: new Date(Date.parse(listWindow.to) - range.ms).toISOString(),
    to: listWindow.to,
  });

  return (
    <>
      <PageHeader
        title="Logs"
        actions={
          <>
            <TimeRangePicker range={range} onChange={setRange} />
            <button
              type="button"
              className={`button${live ? " primary" : ""} logs-live`}
              aria-pressed={live}
              disabled={range.key === "custom"}
              title={
                range.key === "custom"
                  ? "Live tail follows relative ranges only"
                  : `Ask for new records every ${TAIL_INTERVAL_MS / 1000} s`
              }
              onClick={() => setLive(live ? undefined : "1")}
            >
              <span className={`live-dot${live ? " on" : ""}`} aria-hidden="true" /> Live tail
            </button>
            <button
              type="button"
              className="button"
              onClick={() => setAnchor({ key: listKey, at: Date.now() })}
            >
              Refresh
            </button>
          </>
        }
      >
        <p className="muted small" aria-live="polite">
          {live
            ? tail.lastPollAt
              ? `Live: checked at ${formatTime(new Date(tail.lastPollAt).toISOString())}`
              : "Live: starting…"
            : `${range.label}, up to ${formatTime(listWindow.to)}`}
        </p>
      </PageHeader>
      <SearchForm
        filters={filters}
        services={services.data ?? []}
        error={pages.error}
        onApply={(changes) => setParams({ ...changes, log: undefined })}
      />
      {filters.traceId && (
        <p className="notice logs-trace-filter">
          Logs of trace <code>{filters.traceId}</code>{" "}
          <Link href={`~${projectPath(projectId, "traces", filters.traceId)}`}>Open trace</Link>{" "}
          <button
            type="button"
            className="button small"
            onClick={() => setParams({ traceId: undefined })}
          >
            Show all logs
          </button>
        </p>
      )}
      {tail.error !== null && <ProblemMessage error={tail.error} title="Live tail failed" />}
      <LogList pages={pages} tail={tail.rows} selectedId={selected} onSelect={setSelected} />
      {selected && (
        <LogDrawer
          projectId={projectId}
          logId={selected}
          onClose={closeDrawer}
          onTraceLogs={(traceId) => setParams({ traceId, log: undefined })}
        />
      )}
    </>
  );
}

/** The filters: level and source apply at once; the text fields when the form is sent. */
function SearchForm({
  filters,
  services,
  error,
  onApply,
}: {
  filters: LogFilters;
  services: string[];
  error: unknown;
  onApply: (changes: Partial<LogFilters>) => void;
}) {
  const [q, setQ] = useState(filters.q);
  const [service, setService] = useState(filters.service);
  // The URL changed by itself (back button, a link): show what it now says.
  useEffect(() => setQ(filters.q), [filters.q]);
  useEffect(() => setService(filters.service), [filters.service]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ q: q.trim(), service: service.trim() });
  };
  const filtered = filters.q || filters.level || filters.source || filters.service;
  return (
    <form aria-label="Filter logs" className="toolbar logs-toolbar" onSubmit={submit}>
      <div className="logs-search">
        <TextField
          label="Search"
          name="search"
          error={error}
          hint='Words and "quoted phrases"'
          type="search"
          value={q}
          placeholder='timeout "payment failed"'
          onChange={setQ}
        />
      </div>
      <FilterSelect
        label="Level"
        name="level"
        error={error}
        value={filters.level}
        any="All levels"
        options={LOG_LEVELS}
        onChange={(v) => onApply({ level: v })}
      />
      <FilterSelect
        label="Source"
        name="source"
        error={error}
        value={filters.source}
        any="All sources"
        options={LOG_SOURCES}
        onChange={(v) => onApply({ source: v })}
      />
      <Field label="Service" name="service" error={error}>
        {(props) => (
          <>
            <input
              {...props}
              value={service}
              list="logs-services"
              placeholder="Any service"
              onChange={(e) => setService(e.target.value)}
            />
            <datalist id="logs-services">
              {services.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <div className="logs-buttons">
        <button type="submit" className="button primary">
          Search
        </button>
        {filtered && (
          <button
            type="button"
            className="button"
            onClick={() => onApply({ q: "", level: "", source: "", service: "" })}
          >
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
