import type { ReactNode } from "react";
import { useUrlParams } from "../lib/url-state";
import { Empty } from "./feedback";
import { Field } from "./ui";

/**
 * A list's filters as the URL holds them ("" when unset): setting or clearing one goes back to
 * the first page, and `active` says whether any is set (for "Clear filters" and empty states).
 */
export function useListFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useUrlParams();
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ""])) as Record<K, string>;
  const set = (changes: Partial<Record<K, string | undefined>>) =>
    setParams({ ...changes, page: undefined });
  return {
    values,
    set,
    active: keys.some((k) => values[k] !== ""),
    clear: () => set(Object.fromEntries(keys.map((k) => [k, undefined])) as Record<K, undefined>),
  };
}

/** An option of a filter: its value, shown as is, or a value with its label. */
type FilterOption = string | { key: string; label: string };

/**
 * One filter of a list toolbar as a select. The first option (`any`, value "") filters nothing;
 * `any={false}` when a value must be chosen (a sort). With `name`, the server's message about
 * that query parameter shows beside it.
 */
export function FilterSelect({
  label,
  value,
  options,
  onChange,
  any = "All",
  name,
  error,
  hint,
}: {
  label: string;
  value: string;
  options: readonly FilterOption[];
  onChange: (value: string) => void;
  any?: string | false;
  name?: string;
  error?: unknown;
  hint?: string;
}) {
  const keyed = options.map((o) => (typeof o === "string" ? { key: o, label: o } : o));
  return (
    <Field label={label} error={error} {...(name ? { name } : {})} {...(hint ? { hint } : {})}>
      {(props) => (
        <select {...props} value={value} onChange={(e) => onChange(e.target.value)}>
          {any !== false && <option value="">{any}</option>}
          {/* A value from a shared link that the options do not list still shows. */}
          {value !== "" && !keyed.some((o) => o.key === value) && (
            <option value={value}>{value}</option>
          )}
          {keyed.map((o) => (
            <option key={o.key} value={o.key}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The text filter of a list that filters as one types. */
function FilterSearch({
  value,
  placeholder,
  onChange,
  label = "Search",
}: {
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
  label?: string;
}) {
  return (
    <Field label={label}>
      {(props) => (
        <input
          {...props}
          type="search"
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** One select of a `FilterToolbar`: the URL parameter it sets and the select's options. */
interface SelectFilter<K extends string> {
  key: K;
  label: string;
  options: readonly FilterOption[];
  /** The option that filters nothing ("Any state"). */
  any: string;
}

/**
 * The toolbar of a list filtered in the URL (`useListFilters`): a search box for `search`'s
 * key, a select per filter, other controls (`children`), and "Clear filters" while one is set.
 */
export function FilterToolbar<K extends string>({
  filters,
  search,
  selects,
  label,
  children,
}: {
  filters: ReturnType<typeof useListFilters<K>>;
  search?: { key: K; placeholder: string };
  selects: readonly SelectFilter<K>[];
  label?: string;
  children?: ReactNode;
}) {
  return (
    <search className="toolbar" aria-label={label}>
      {search && (
        <FilterSearch
          value={filters.values[search.key]}
          placeholder={search.placeholder}
          onChange={(text) => filters.set({ [search.key]: text } as Partial<Record<K, string>>)}
        />
      )}
      {selects.map((f) => (
        <FilterSelect
          key={f.key}
          label={f.label}
          value={filters.values[f.key]}
          any={f.any}
          options={f.options}
          onChange={(v) => filters.set({ [f.key]: v } as Partial<Record<K, string>>)}
        />
      ))}
      {children}
      <ClearFilters active={filters.active} onClear={filters.clear} />
    </search>
  );
}

/** "Clear filters", shown only while a filter is set. */
function ClearFilters({ active, onClear }: { active: boolean; onClear: () => void }) {
  if (!active) return null;
  return (
    <button type="button" className="button small" onClick={onClear}>
      Clear filters
    </button>
  );
}

/**
 * The empty state of a filtered list: nothing passes the filters (which is not "nothing yet");
 * the toolbar's "Clear filters" is the way back.
 */
export function NoMatches({
  title,
  children = "Change or clear the filters to see more.",
}: {
  title: string;
  children?: ReactNode;
}) {
  return <Empty title={title}>{children}</Empty>;
}

/**
 * The empty state of a list with nothing in it yet: how to create the first item for those who
 * may (`children`), and who can for those who may not.
 */
export function NothingYet({
  title,
  canCreate,
  children,
  who = "A member of the organization",
}: {
  title: string;
  canCreate: boolean;
  children: ReactNode;
  who?: string;
}) {
  return <Empty title={title}>{canCreate ? children : `${who} can create one.`}</Empty>;
}
