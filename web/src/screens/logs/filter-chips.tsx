import { type FormEvent, useId, useState } from "react";
import { FILTER_OPS, type Filter, type FilterOp } from "../../../../src/contracts/explore-filters";
import { FieldSuggest, ValueSuggest } from "../../components/field-suggest";
import { filterText, opText } from "./facet-filters";

const LIST_OPS: readonly FilterOp[] = ["in", "not_in"];
const NO_VALUE_OPS: readonly FilterOp[] = ["exists", "not_exists"];
const NUMBER_OPS: readonly FilterOp[] = [">", ">=", "<", "<="];

/**
 * The `filters` in force as chips, each removable, and a form to add one: a field from the
 * attribute catalog's suggestions, an operator, a value (comma-separated for "one of").
 */
export function FilterChips({
  filters,
  invalid,
  onChange,
}: {
  filters: readonly Filter[];
  /** The URL's `filters` could not be read. */
  invalid: boolean;
  onChange: (filters: Filter[]) => void;
}) {
  const [adding, setAdding] = useState(false);
  return (
    <div className="filter-chips">
      {invalid && (
        <span className="notice small">
          The link's filters could not be read.{" "}
          <button type="button" className="button small" onClick={() => onChange([])}>
            Clear them
          </button>
        </span>
      )}
      <ul aria-label="Filters">
        {filters.map((filter, i) => {
          const text = filterText(filter);
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
    const name = field.trim();
    if (!name) return setProblem("Choose a field");
    const typed = value.trim();
    let filterValue: Filter["value"];
    if (NO_VALUE_OPS.includes(op)) filterValue = undefined;
    else if (LIST_OPS.includes(op)) {
      const list = typed
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
      if (list.length === 0) return setProblem("Give one or more values, comma-separated");
      filterValue = list;
    } else if (NUMBER_OPS.includes(op)) {
      const number = Number(typed);
      if (typed === "" || !Number.isFinite(number)) return setProblem("Give a number");
      filterValue = number;
    } else filterValue = value;
    onAdd(
      filterValue === undefined ? { field: name, op } : { field: name, op, value: filterValue },
    );
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
            {opText(o)}
          </option>
        ))}
      </select>
      {!NO_VALUE_OPS.includes(op) && (
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
            placeholder={LIST_OPS.includes(op) ? "a, b, c" : "Value"}
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
