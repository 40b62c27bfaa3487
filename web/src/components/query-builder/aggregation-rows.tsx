import type { ExploreSource } from "../../../../src/contracts/explore-filters";
import {
  BUILDER_FUNCTIONS,
  type BuilderAggregation,
  type BuilderFunction,
  type BuilderIssue,
  fieldUse,
  MAX_AGGREGATIONS,
  MAX_GROUP_BY,
} from "../../../../src/contracts/query-builder";
import { FieldSuggest } from "../field-suggest";
import { issueAt, withFunction } from "./builder-state";
import { IssueText } from "./filter-rows";

export const FUNCTION_LABELS: Record<BuilderFunction, string> = {
  count: "count",
  rate: "rate (per second)",
  sum: "sum",
  avg: "average",
  min: "min",
  max: "max",
  p50: "p50",
  p90: "p90",
  p95: "p95",
  p99: "p99",
  count_distinct: "count distinct",
};

/** The aggregation rows: a function and, where it takes one, its field. */
export function AggregationRows({
  source,
  aggregations,
  issues,
  max = MAX_AGGREGATIONS,
  onChange,
}: {
  source: ExploreSource;
  aggregations: readonly BuilderAggregation[];
  issues: readonly BuilderIssue[];
  /** An alert reads one number: its form offers one row. */
  max?: number;
  onChange: (aggregations: BuilderAggregation[]) => void;
}) {
  const set = (index: number, aggregation: BuilderAggregation) =>
    onChange(aggregations.map((a, i) => (i === index ? aggregation : a)));
  return (
    <fieldset className="qb-section">
      <legend>{max === 1 ? "Value" : "Aggregations"}</legend>
      {aggregations.slice(0, max).map((aggregation, i) => {
        const n = i + 1;
        const use = fieldUse(aggregation.fn);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, by position
          <div className="qb-row" key={i}>
            <select
              aria-label={`Aggregation ${n}`}
              value={aggregation.fn}
              onChange={(e) => set(i, withFunction(aggregation, e.target.value as BuilderFunction))}
            >
              {BUILDER_FUNCTIONS.map((fn) => (
                <option key={fn} value={fn}>
                  {FUNCTION_LABELS[fn]}
                </option>
              ))}
            </select>
            {use !== "none" && (
              <>
                <span className="muted small">of</span>
                <FieldSuggest
                  source={source}
                  value={aggregation.field ?? ""}
                  onChange={(field) =>
                    set(
                      i,
                      use === "optional" && field === ""
                        ? { fn: aggregation.fn }
                        : { fn: aggregation.fn, field },
                    )
                  }
                  aria-label={`Aggregation ${n} field`}
                  placeholder={use === "optional" ? "rows (or a field to sum)" : "field"}
                  className="qb-field"
                />
              </>
            )}
            {aggregations.length > 1 && (
              <button
                type="button"
                className="button small"
                aria-label={`Remove aggregation ${n}`}
                onClick={() => onChange(aggregations.filter((_, j) => j !== i))}
              >
                ✕
              </button>
            )}
            <IssueText id={`qb-agg-${i}`} message={issueAt(issues, `aggregations.${i}.field`)} />
          </div>
        );
      })}
      {max > 1 && (
        <button
          type="button"
          className="button small"
          disabled={aggregations.length >= max}
          onClick={() => onChange([...aggregations, { fn: "count" }])}
        >
          Add aggregation
        </button>
      )}
    </fieldset>
  );
}

/** The group-by fields: one series (or row) per combination of their values. */
export function GroupByRows({
  source,
  groupBy,
  issues,
  onChange,
}: {
  source: ExploreSource;
  groupBy: readonly string[];
  issues: readonly BuilderIssue[];
  onChange: (groupBy: string[]) => void;
}) {
  return (
    <fieldset className="qb-section">
      <legend>Group by</legend>
      {groupBy.map((field, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, by position
        <div className="qb-row" key={i}>
          <FieldSuggest
            source={source}
            value={field}
            onChange={(next) => onChange(groupBy.map((f, j) => (j === i ? next : f)))}
            aria-label={`Group by ${i + 1}`}
            placeholder="field"
            className="qb-field"
          />
          <button
            type="button"
            className="button small"
            aria-label={`Remove group by ${i + 1}`}
            onClick={() => onChange(groupBy.filter((_, j) => j !== i))}
          >
            ✕
          </button>
          <IssueText id={`qb-group-${i}`} message={issueAt(issues, `groupBy.${i}`)} />
        </div>
      ))}
      <button
        type="button"
        className="button small"
        disabled={groupBy.length >= MAX_GROUP_BY}
        onClick={() => onChange([...groupBy, ""])}
      >
        Add group by
      </button>
    </fieldset>
  );
}
