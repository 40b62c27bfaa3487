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
} from "../../components/filters/filter-model";
import { fieldLabel } from "./facet-filters";

/**
 * The `filters` in force as chips, each removable, and a form to add one: a field from the
 * attribute catalog's suggestions, an operator, a value (comma-separated for "one of").
 */
export function FilterChips({
  filters,
  dropped,
  onChange,
}: {
  filters: readonly Filter[];
  /** How many of the URL's `filters` could not be read (and are left out). */
  dropped: number;
  onChange: (filters: Filter[]) => void;
}) {
  const [adding, setAdding] = useState(false);
  return (
    <div className="filter-chips">
      {dropped > 0 && (
        <span className="notice small">
          {filters.length > 0
            ? "Some of the link's filters could not be read; the others apply."
            : "The link's filters could not be read."}{" "}
          <button type="button" className="button small" onClick={() => onChange([...filters])}>
            Clear them
          </button>
        </span>
      )}
      <ul aria-label="Filters">
        {filters.map((filter, i) => {
          const text = filterText(filter, fieldLabel);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same filter may be there twice
            <li key={i} className="chip">
              <span className={filter.op.startsWith("not") || filter.op === "!=" ? "chip-not" : ""}>
                {text}
              </span>
              <button
                type="button"
                aria-label={`Remove filter ${text}`}
                title="Remove"
                onClick={() => onChange(filters.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
      {adding ? (
        <AddFilter
          onAdd={(filter) => {
            onChange([...filters, filter]);
            setAdding(false);
          }}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <button type="button" className="button small" onClick={() => setAdding(true)}>
          + Filter
        </button>
      )}
    </div>
  );
}

function AddFilter({ onAdd, onCancel }: { onAdd: (filter: Filter) => void; onCancel: () => void }) {
  const id = useId();
  const [field, setField] = useState("");
  const [op, setOp] = useState<FilterOp>("=");
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made = filterFromText(field, op, value, isNumberField("logs", field));
    if (made.ok) onAdd(made.filter);
    else setProblem(made.problem);
  };
  return (
    <form className="add-filter" aria-label="Add a filter" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`${id}-field`}>
        Field
      </label>
      <FieldSuggest
        id={`${id}-field`}
        source="logs"
        value={field}
        onChange={setField}
        placeholder="Field"
      />
      <label className="visually-hidden" htmlFor={`${id}-op`}>
        Operator
      </label>
      <select id={`${id}-op`} value={op} onChange={(e) => setOp(e.target.value as FilterOp)}>
        {FILTER_OPS.map((o) => (
          <option key={o} value={o}>
            {OP_LABELS[o]}
          </option>
        ))}
      </select>
      {!takesNoValue(op) && (
        <>
          <label className="visually-hidden" htmlFor={`${id}-value`}>
            Value
          </label>
          <ValueSuggest
            id={`${id}-value`}
            source="logs"
            field={field}
            value={value}
            onChange={setValue}
            placeholder={takesList(op) ? "a, b, c" : "Value"}
          />
        </>
      )}
      <button type="submit" className="button small primary">
        Add
      </button>
      <button type="button" className="button small" onClick={onCancel}>
        Cancel
      </button>
      {problem && (
        <span className="field-error small" role="alert">
          {problem}
        </span>
      )}
    </form>
  );
}
