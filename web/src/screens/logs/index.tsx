import { useCallback, useMemo, useState } from "react";
import { Link } from "wouter";
import { logSearchTerms } from "../../../../src/contracts/logs";
import { ProblemMessage } from "../../components/feedback";
import { filtersParam, parseFilters } from "../../components/filters/filter-model";
import { SavedViews } from "../../components/saved-views";
import { PageHeader, TimeRangePicker } from "../../components/ui";
import { formatTime } from "../../lib/format";
import { projectPath } from "../../lib/project-path";
import { useChartZoom, useTimeRange } from "../../lib/time-range";
import { useUrlParam } from "../../lib/url-state";
import { useProject } from "../project-context";
import { toggleValue } from "./facet-filters";
import { FacetList } from "./facet-list";
import { FilterChips } from "./filter-chips";
import { TAIL_INTERVAL_MS, useLiveTail } from "./live-tail";
import { LogDrawer } from "./log-drawer";
import { LogList } from "./log-list";
import { useLogFacets, useLogFilters, useLogPages, useLogServices, useLogVolume } from "./logs-api";
import { SearchForm } from "./search-form";
import { VolumeHistogram } from "./volume-histogram";
import "./logs.css";
import "./logs-explore.css";

/**
 * Log explorer: full-text search (words and "quoted phrases", marked in the messages),
 * level/source/service/trace filters, facets and attribute filters (`filters`) and the time
 * range, all in the URL; the volume by level over the window (click or drag to zoom); the
 * records as an endless virtualized list; a record's detail and context in a drawer (`log=`);
 * and a live tail that polls for newer records.
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
  const volume = useLogVolume(projectId, filters, listWindow);
  const facets = useLogFacets(projectId, filters, listWindow);
  const zoom = useChartZoom(setRange);
  const parsed = useMemo(() => parseFilters(filters.filters), [filters.filters]);
  const terms = useMemo(() => logSearchTerms(filters.q), [filters.q]);
  const setFilters = (next: Parameters<typeof filtersParam>[0]) =>
    setParams({ filters: filtersParam(next), log: undefined });
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
            <SavedViews kind="logs" />
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
      <FilterChips filters={parsed.filters} dropped={parsed.dropped} onChange={setFilters} />
      <div className="logs-explore">
        <FacetList
          facets={facets.data}
          error={facets.error}
          refreshing={facets.isPlaceholderData}
          filters={parsed.filters}
          onToggle={(field, value, mode) =>
            setFilters(toggleValue(parsed.filters, field, value, mode))
          }
        />
        <div className="logs-main">
          {volume.data ? (
            <VolumeHistogram
              volume={volume.data}
              refreshing={volume.isPlaceholderData}
              onZoom={zoom}
            />
          ) : (
            volume.isError && <ProblemMessage error={volume.error} title="No histogram" />
          )}
          {tail.error !== null && <ProblemMessage error={tail.error} title="Live tail failed" />}
          <LogList
            pages={pages}
            tail={tail.rows}
            terms={terms}
            selectedId={selected}
            onSelect={setSelected}
          />
        </div>
      </div>
      {selected && (
        <LogDrawer
          projectId={projectId}
          logId={selected}
          terms={terms}
          onClose={closeDrawer}
          onSelect={setSelected}
          onTraceLogs={(traceId) => setParams({ traceId, log: undefined })}
        />
      )}
    </>
  );
}
