import { type FormEvent, useId, useState } from "react";
import { FILTER_OPS, type Filter, type FilterOp } from "../../../../src/contracts/explore-filters";
import { FieldSuggest, ValueSuggest } from "../../components/field-suggest";
import {
  filterFromText,
  filterText,
  isNumberField,
  OP_LABELS,
  takesList,
  takesNoValue,
  takesNumber,
} from "../../components/filters/filter-model";
import { withFilter } from "./trace-selection";

/**
 * The span filters as chips (each removable) and a form adding one: a field (a column,
 * `attributes.<key>` or `resource.<key>`, suggested from the project's attribute catalog), an
 * operator and a value. A trace matches when one of its spans matches every filter.
 */
export function AttributeFilters({
  filters,
  onChange,
}: {
  filters: Filter[];
  onChange: (filters: Filter[]) => void;
}) {
  const [adding, setAdding] = useState(false);
  return (
    <div className="trace-attribute-filters">
      <ul className="trace-filter-chips" aria-label="Span filters">
        {filters.map((filter, i) => (
          <li key={JSON.stringify(filter)} className="trace-filter-chip">
            <span className="mono">{filterText(filter)}</span>
            <button
              type="button"
              className="trace-chip-remove"
              aria-label={`Remove filter ${filterText(filter)}`}
              onClick={() => onChange(filters.filter((_, k) => k !== i))}
            >
              ×
            </button>
          </li>
        ))}
        {!adding && (
          <li>
            <button type="button" className="button small" onClick={() => setAdding(true)}>
              + Filter
            </button>
          </li>
        )}
      </ul>
      {adding && (
        <AddFilter
          onAdd={(filter) => {
            onChange(withFilter(filters, filter));
            setAdding(false);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
    </div>
  );
}

function AddFilter({ onAdd, onCancel }: { onAdd: (filter: Filter) => void; onCancel: () => void }) {
  const id = useId();
  const [field, setField] = useState("");
  const [op, setOp] = useState<FilterOp>("=");
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const numericField = isNumberField("traces", field);
    const made = filterFromText(field, op, value, numericField);
    if (made.ok) onAdd(made.filter);
    else setError(made.problem);
  };
  const numeric = takesNumber(op);
  return (
    <form
      className="trace-add-filter"
      aria-label="Add a span filter"
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === "Escape" && !e.defaultPrevented) onCancel();
      }}
    >
      <label className="inline-field" htmlFor={`${id}-field`}>
        <span>Field</span>
      </label>
      <FieldSuggest
        id={`${id}-field`}
        source="traces"
        value={field}
        onChange={(next) => {
          setField(next);
          setError(undefined);
        }}
        placeholder="attributes.http.route"
        className="trace-filter-field"
      />
      <label className="inline-field">
        <span>Operator</span>
        <select value={op} onChange={(e) => setOp(e.target.value as FilterOp)}>
          {FILTER_OPS.map((o) => (
            <option key={o} value={o}>
              {OP_LABELS[o]}
            </option>
          ))}
        </select>
      </label>
      {!takesNoValue(op) && (
        <>
          <label className="inline-field" htmlFor={`${id}-value`}>
            <span>Value</span>
          </label>
          {numeric ? (
            <input
              id={`${id}-value`}
              type="number"
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          ) : (
            <ValueSuggest
              id={`${id}-value`}
              source="traces"
              field={field}
              value={value}
              onChange={(next) => {
                setValue(next);
                setError(undefined);
              }}
              placeholder={takesList(op) ? "a, b, c" : "value"}
              className="trace-filter-value"
            />
          )}
        </>
      )}
      <button type="submit" className="button small primary">
        Add
      </button>
      <button type="button" className="button small" onClick={onCancel}>
        Cancel
      </button>
      {error && (
        <small className="field-error" role="alert">
          {error}
        </small>
      )}
    </form>
  );
}
