import { type FormEvent, useEffect, useState } from "react";
import { LOG_LEVELS } from "../../../../src/contracts/logs";
import { SOURCES as LOG_SOURCES } from "../../../../src/contracts/telemetry-sources";
import { FilterSelect } from "../../components/list-filters";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import type { LogFilters } from "./logs-api";

/** The filters: level and source apply at once; the text fields when the form is sent. */
export function SearchForm({
  filters,
  services,
  error,
  onApply,
}: {
  filters: LogFilters;
  services: string[];
  error: unknown;
  onApply: (changes: Partial<LogFilters>) => void;
}) {
  const [q, setQ] = useState(filters.q);
  const [service, setService] = useState(filters.service);
  // The URL changed by itself (back button, a link): show what it now says.
  useEffect(() => setQ(filters.q), [filters.q]);
  useEffect(() => setService(filters.service), [filters.service]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ q: q.trim(), service: service.trim() });
  };
  const filtered =
    filters.q || filters.level || filters.source || filters.service || filters.filters;
  return (
    <form aria-label="Filter logs" className="toolbar logs-toolbar" onSubmit={submit}>
      <div className="logs-search">
        <TextField
          label="Search"
          name="search"
          error={error}
          hint='Words and "quoted phrases"'
          type="search"
          value={q}
          placeholder='timeout "payment failed"'
          onChange={setQ}
        />
      </div>
      <FilterSelect
        label="Level"
        name="level"
        error={error}
        value={filters.level}
        any="All levels"
        options={LOG_LEVELS}
        onChange={(v) => onApply({ level: v })}
      />
      <FilterSelect
        label="Source"
        name="source"
        error={error}
        value={filters.source}
        any="All sources"
        options={LOG_SOURCES}
        onChange={(v) => onApply({ source: v })}
      />
      <Field label="Service" name="service" error={error}>
        {(props) => (
          <>
            <input
              {...props}
              value={service}
              list="logs-services"
              placeholder="Any service"
              onChange={(e) => setService(e.target.value)}
            />
            <datalist id="logs-services">
              {services.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <div className="logs-buttons">
        <button type="submit" className="button primary">
          Search
        </button>
        {filtered && (
          <button
            type="button"
            className="button"
            onClick={() => onApply({ q: "", level: "", source: "", service: "", filters: "" })}
          >
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
