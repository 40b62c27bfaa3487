import { useEffect, useId, useRef, useState } from "react";
import { errorMessage } from "../../api/client";
import { useDismiss } from "../../lib/dismiss";
import type { VariableState } from "./dashboard-state";
import { ALL_VALUE, selectionLabel, toggleValue } from "./variable-values";

/**
 * The dashboard's variables above its panels: a text box, a select, or a multi-select with
 * "All". A change goes to the URL (`var-<name>`), and the panels that use it ask again.
 */
export function VariableBar({
  states,
  onSelect,
}: {
  states: readonly VariableState[];
  onSelect: (name: string, values: string[]) => void;
}) {
  if (states.length === 0) return null;
  return (
    <fieldset className="dsh-variables">
      <legend className="visually-hidden">Variables</legend>
      {states.map((state) => (
        <VariableControl
          key={state.variable.name}
          state={state}
          onSelect={(values) => onSelect(state.variable.name, values)}
        />
      ))}
    </fieldset>
  );
}

function VariableControl({
  state,
  onSelect,
}: {
  state: VariableState;
  onSelect: (values: string[]) => void;
}) {
  const { variable, options, selection, loading, error } = state;
  const id = useId();
  const label = variable.label || variable.name;
  return (
    <div className="dsh-variable">
      <label htmlFor={id}>{label}</label>
      {variable.type === "text" ? (
        <TextVariable id={id} value={selection[0] ?? ""} onApply={(v) => onSelect([v])} />
      ) : variable.multi ? (
        <MultiSelect
          id={id}
          label={label}
          options={options}
          selection={selection}
          includeAll={variable.includeAll}
          onSelect={onSelect}
        />
      ) : (
        <select id={id} value={selection[0] ?? ""} onChange={(e) => onSelect([e.target.value])}>
          {variable.includeAll && <option value={ALL_VALUE}>All</option>}
          {/* A value from a shared link that the options no longer list still shows. */}
          {selection[0] !== undefined &&
            selection[0] !== ALL_VALUE &&
            !options.includes(selection[0]) && (
              <option value={selection[0]}>{selection[0] || "(none)"}</option>
            )}
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      )}
      {loading && <span className="spinner" role="status" aria-label={`Loading ${label}`} />}
      {Boolean(error) && (
        <small className="field-error" title={errorMessage(error)}>
          Options failed: {errorMessage(error)}
        </small>
      )}
    </div>
  );
}

/** Applied on Enter or when leaving the box, so the panels do not ask at every key. */
function TextVariable({
  id,
  value,
  onApply,
}: {
  id: string;
  value: string;
  onApply: (value: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const apply = () => {
    if (draft !== value) onApply(draft);
  };
  return (
    <input
      id={id}
      type="text"
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={apply}
      onKeyDown={(e) => {
        if (e.key === "Enter") apply();
      }}
    />
  );
}

function MultiSelect({
  id,
  label,
  options,
  selection,
  includeAll,
  onSelect,
}: {
  id: string;
  label: string;
  options: readonly string[];
  selection: readonly string[];
  includeAll: boolean;
  onSelect: (values: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState("");
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, () => setOpen(false));
  const listed = [
    ...selection.filter((v) => v !== ALL_VALUE && !options.includes(v)),
    ...options,
  ].filter((o) => o.toLowerCase().includes(filter.toLowerCase()));
  const all = selection.includes(ALL_VALUE);
  return (
    <div className="dsh-multi" ref={root}>
      <button
        id={id}
        type="button"
        className="dsh-multi-button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {selectionLabel(selection)}
      </button>
      {open && (
        <fieldset className="dsh-multi-list">
          <legend className="visually-hidden">{label} values</legend>
          {options.length > 8 && (
            <input
              type="search"
              placeholder="Filter"
              aria-label={`Filter ${label} values`}
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
          )}
          {includeAll && (
            <label>
              <input
                type="checkbox"
                checked={all}
                onChange={() => onSelect(toggleValue(selection, ALL_VALUE))}
              />{" "}
              All
            </label>
          )}
          {listed.map((o) => (
            <label key={o}>
              <input
                type="checkbox"
                checked={!all && selection.includes(o)}
                onChange={() => onSelect(toggleValue(selection, o))}
              />{" "}
              {o || "(empty)"}
            </label>
          ))}
          {listed.length === 0 && <span className="muted small">No values</span>}
        </fieldset>
      )}
    </div>
  );
}
