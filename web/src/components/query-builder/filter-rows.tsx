import { useEffect, useState } from "react";
import {
  type ExploreSource,
  FILTER_OPS,
  type Filter,
  type FilterOp,
  MAX_FILTERS,
} from "../../../../src/contracts/explore-filters";
import type { BuilderIssue } from "../../../../src/contracts/query-builder";
import { FieldSuggest, ValueSuggest } from "../field-suggest";
import { OP_LABELS, takesList, takesNoValue, valueText } from "../filters/filter-model";
import { issueAt, valueFor, withOp } from "./builder-state";

/** A message under a control, tied to it by id. */
export function IssueText({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <small id={id} className="field-error qb-issue">
      {message}
    </small>
  ) : null;
}

/**
 * A filter's value as typed: the text stays as the user has it (a list mid-way, `a,`) while the
 * state gets its meaning for the operator; a change from outside (another operator) rewrites it.
 */
function ValueInput({
  source,
  filter,
  label,
  invalid,
  describedBy,
  onChange,
}: {
  source: ExploreSource;
  filter: Filter;
  label: string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (value: Filter["value"]) => void;
}) {
  const [typed, setTyped] = useState(valueText(filter.value));
  useEffect(() => {
    setTyped((now) =>
      JSON.stringify(valueFor(filter.op, now)) === JSON.stringify(filter.value)
        ? now
        : valueText(filter.value),
    );
  }, [filter.op, filter.value]);
  const change = (next: string) => {
    setTyped(next);
    onChange(valueFor(filter.op, next));
  };
  const list = takesList(filter.op);
  // Suggestions name one value: a list's input suggests for the last item typed.
  return list ? (
    <input
      className="qb-value"
      aria-label={label}
      placeholder="a, b, c"
      value={typed}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      onChange={(e) => change(e.target.value)}
    />
  ) : (
    <ValueSuggest
      source={source}
      field={filter.field}
      value={typed}
      onChange={change}
      aria-label={label}
      placeholder="value"
      className="qb-value"
    />
  );
}

/** The filter rows: field, operator, value (none for exists), each checked at its path. */
export function FilterRows({
  source,
  filters,
  issues,
  onChange,
}: {
  source: ExploreSource;
  filters: readonly Filter[];
  issues: readonly BuilderIssue[];
  onChange: (filters: Filter[]) => void;
}) {
  const set = (index: number, filter: Filter) =>
    onChange(filters.map((f, i) => (i === index ? filter : f)));
  return (
    <fieldset className="qb-section">
      <legend>Filters</legend>
      {filters.length === 0 && <p className="muted small">Every row of the source.</p>}
      {filters.map((filter, i) => {
        const n = i + 1;
        const fieldIssue = issueAt(issues, `filters.${i}.field`);
        const valueIssue = issueAt(issues, `filters.${i}.value`);
        const id = `qb-filter-${i}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, by position
          <div className="qb-row" key={i}>
            <FieldSuggest
              source={source}
              value={filter.field}
              onChange={(field) => set(i, { ...filter, field })}
              aria-label={`Filter ${n} field`}
              placeholder="field"
              className="qb-field"
            />
            <select
              aria-label={`Filter ${n} operator`}
              value={filter.op}
              onChange={(e) => set(i, withOp(filter, e.target.value as FilterOp))}
            >
              {FILTER_OPS.map((op) => (
                <option key={op} value={op}>
                  {OP_LABELS[op]}
                </option>
              ))}
            </select>
            {!takesNoValue(filter.op) && (
              <ValueInput
                source={source}
                filter={filter}
                label={`Filter ${n} value`}
                invalid={valueIssue !== undefined}
                describedBy={valueIssue ? `${id}-value` : undefined}
                onChange={(value) =>
                  set(i, {
                    field: filter.field,
                    op: filter.op,
                    ...(value === undefined ? {} : { value }),
                  })
                }
              />
            )}
            <button
              type="button"
              className="button small"
              aria-label={`Remove filter ${n}`}
              onClick={() => onChange(filters.filter((_, j) => j !== i))}
            >
              ✕
            </button>
            <IssueText id={`${id}-field`} message={fieldIssue} />
            <IssueText id={`${id}-value`} message={valueIssue} />
          </div>
        );
      })}
      <button
        type="button"
        className="button small"
        disabled={filters.length >= MAX_FILTERS}
        onClick={() => onChange([...filters, { field: "", op: "=", value: "" }])}
      >
        Add filter
      </button>
    </fieldset>
  );
}
