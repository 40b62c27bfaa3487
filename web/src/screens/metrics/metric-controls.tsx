import { useState } from "react";
import { FILTER_OPS, type Filter, type FilterOp } from "../../../../src/contracts/explore-filters";
import type { MetricNameView } from "../../../../src/contracts/metric-names";
import {
  AGGREGATION_LABELS,
  aggregationsFor,
  DEFAULT_QUANTILE,
  MAX_METRIC_GROUP_BY,
  METRIC_QUANTILES,
  type MetricAggregation,
  type MetricQuery,
} from "../../../../src/contracts/metric-queries";
import { ValueSuggest } from "../../components/field-suggest";
import {
  filterFromText,
  filterText,
  OP_LABELS,
  takesList,
  takesNoValue,
} from "../../components/filters/filter-model";
import { groupFields } from "./explorer-state";

/**
 * How the chosen metric is read: the aggregation its type allows (the default first), the
 * quantile of a distribution, the attributes to group by, and filters on them.
 */
export function MetricControls({
  query,
  metric,
  onChange,
}: {
  query: MetricQuery;
  metric: MetricNameView | null | undefined;
  onChange: (next: MetricQuery) => void;
}) {
  const aggregations = aggregationsFor(query.type, query.monotonic);
  const aggregation: MetricAggregation =
    query.aggregation ?? (aggregations[0] as MetricAggregation);
  const fields = groupFields(metric ?? undefined);
  // Fields the URL names that the metric's entry does not list (yet) stay choosable.
  for (const field of query.groupBy)
    if (!fields.some((f) => f.field === field))
      fields.push({ field, label: field.replace(/^(attributes|resource)\./, ""), scope: "point" });
  const toggle = (field: string, on: boolean) =>
    onChange({
      ...query,
      groupBy: on ? [...query.groupBy, field] : query.groupBy.filter((f) => f !== field),
    });
  const full = query.groupBy.length >= MAX_METRIC_GROUP_BY;
  return (
    <div className="metrics-controls">
      <div className="toolbar">
        <label className="inline-field">
          <span>Aggregation</span>
          <select
            aria-label="Aggregation"
            value={aggregation}
            onChange={(e) => {
              const { aggregation: _old, ...rest } = query;
              const next = e.target.value as MetricAggregation;
              onChange(next === aggregations[0] ? rest : { ...rest, aggregation: next });
            }}
          >
            {aggregations.map((a, i) => (
              <option key={a} value={a}>
                {AGGREGATION_LABELS[a]}
                {i === 0 ? " (default)" : ""}
              </option>
            ))}
          </select>
        </label>
        {aggregation === "quantile" && (
          <label className="inline-field">
            <span>Quantile</span>
            <select
              aria-label="Quantile"
              value={query.quantile ?? DEFAULT_QUANTILE}
              onChange={(e) => onChange({ ...query, quantile: Number(e.target.value) })}
            >
              {METRIC_QUANTILES.map((q) => (
                <option key={q} value={q}>
                  p{q * 100}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <fieldset className="metrics-group-by">
        <legend>Group by</legend>
        {fields.map(({ field, label, scope }) => {
          const on = query.groupBy.includes(field);
          return (
            <label key={field} className={`metrics-key scope-${scope}`} title={field}>
              <input
                type="checkbox"
                checked={on}
                disabled={!on && full}
                onChange={(e) => toggle(field, e.target.checked)}
              />
              {label}
            </label>
          );
        })}
      </fieldset>
      <FilterRows
        filters={query.filters}
        fields={fields.map((f) => f.field)}
        onChange={(filters) => onChange({ ...query, filters })}
      />
    </div>
  );
}

function FilterRows({
  filters,
  fields,
  onChange,
}: {
  filters: Filter[];
  fields: string[];
  onChange: (filters: Filter[]) => void;
}) {
  const [field, setField] = useState("");
  const [op, setOp] = useState<FilterOp>("=");
  const [text, setText] = useState("");
  const [problem, setProblem] = useState("");
  const chosen = field || fields[0] || "";
  // Text that does not fit the operator (a word for `>`) is said next to the input, not added.
  const add = () => {
    const made = filterFromText(chosen, op, text);
    if (!made.ok) return setProblem(made.problem);
    onChange([...filters, made.filter]);
    setText("");
    setProblem("");
  };
  return (
    <div className="metrics-filters">
      {filters.length > 0 && (
        <ul className="metrics-filter-chips" aria-label="Filters">
          {filters.map((f, i) => (
            <li key={JSON.stringify(f)}>
              <code>{filterText(f)}</code>
              <button
                type="button"
                className="button small"
                aria-label={`Remove the filter on ${f.field}`}
                onClick={() => onChange(filters.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="toolbar metrics-filter-form"
        aria-label="Add a filter"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <select aria-label="Filter field" value={chosen} onChange={(e) => setField(e.target.value)}>
          {fields.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
        <select
          aria-label="Operator"
          value={op}
          onChange={(e) => {
            setOp(e.target.value as FilterOp);
            setProblem("");
          }}
        >
          {FILTER_OPS.map((o) => (
            <option key={o} value={o}>
              {OP_LABELS[o]}
            </option>
          ))}
        </select>
        {!takesNoValue(op) && (
          <ValueSuggest
            source="metrics"
            field={chosen}
            aria-label="Filter value"
            placeholder={takesList(op) ? "a, b, c" : "value"}
            value={text}
            onChange={(next) => {
              setText(next);
              setProblem("");
            }}
          />
        )}
        <button type="submit" className="button">
          Add filter
        </button>
        {problem && (
          <small className="field-error" role="alert">
            {problem}
          </small>
        )}
      </form>
    </div>
  );
}
