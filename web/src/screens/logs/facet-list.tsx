import type { MouseEvent } from "react";
import type { Filter } from "../../../../src/contracts/explore-filters";
import type { LogFacets } from "../../../../src/contracts/logs";
import { Loading, ProblemMessage } from "../../components/feedback";
import { formatCompact, formatNumber } from "../../lib/format";
import { fieldLabel, valueState } from "./facet-filters";

type Facet = LogFacets["facets"][number];

/**
 * The facets beside the list: each field's most frequent values with their counts among the
 * records shown. A click on a value includes it (several of a field: any of them), the − button
 * or an Alt+click excludes it; the same again takes it back out.
 */
export function FacetList({
  facets,
  error,
  refreshing,
  filters,
  onToggle,
}: {
  facets: LogFacets | undefined;
  error: unknown;
  refreshing: boolean;
  filters: readonly Filter[];
  onToggle: (field: string, value: string, mode: "include" | "exclude") => void;
}) {
  if (!facets) return error ? <ProblemMessage error={error} /> : <Loading label="Counting…" />;
  return (
    <nav className={`facets${refreshing ? " refreshing" : ""}`} aria-label="Facets">
      {facets.sampled && (
        <p className="muted small facets-note">
          Attribute counts are over the newest {formatNumber(facets.sampleSize)} of{" "}
          {formatNumber(facets.total)} logs.
        </p>
      )}
      {facets.facets.map((facet) => (
        <FacetGroup key={facet.field} facet={facet} filters={filters} onToggle={onToggle} />
      ))}
    </nav>
  );
}

function FacetGroup({
  facet,
  filters,
  onToggle,
}: {
  facet: Facet;
  filters: readonly Filter[];
  onToggle: (field: string, value: string, mode: "include" | "exclude") => void;
}) {
  const label = fieldLabel(facet.field);
  const top = Math.max(1, ...facet.values.map((v) => v.count));
  const more = facet.distinct - facet.values.length;
  return (
    <section className="facet">
      <h3 title={facet.field}>
        {label}
        {facet.sampled && (
          <span className="muted small" title="Counted over the newest matching records">
            {" "}
            ~
          </span>
        )}
      </h3>
      {facet.values.length === 0 ? (
        <p className="muted small">No values</p>
      ) : (
        <ul>
          {facet.values.map(({ value, count }) => {
            const state = valueState(filters, facet.field, value);
            const shown = value === "" ? "(empty)" : value;
            const include = (event: MouseEvent) =>
              onToggle(facet.field, value, event.altKey ? "exclude" : "include");
            return (
              <li key={value} className={state ? `facet-is-${state}` : undefined}>
                <button
                  type="button"
                  className="facet-value"
                  aria-pressed={state === "include"}
                  title={`${shown}: ${formatNumber(count)} (click: only these; Alt+click: exclude)`}
                  onClick={include}
                >
                  <span className="facet-bar" style={{ width: `${(count / top) * 100}%` }} />
                  <span className="facet-text">{shown}</span>
                  <span className="facet-count">{formatCompact(count)}</span>
                </button>
                <button
                  type="button"
                  className="facet-exclude"
                  aria-pressed={state === "exclude"}
                  aria-label={`Exclude “${shown}”`}
                  title={state === "exclude" ? "Excluded: click to stop excluding" : "Exclude"}
                  onClick={() => onToggle(facet.field, value, "exclude")}
                >
                  −
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {more > 0 && (
        <p className="muted small facet-more">
          {formatNumber(more)} more value{more === 1 ? "" : "s"}
        </p>
      )}
    </section>
  );
}
