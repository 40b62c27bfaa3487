import type { UseQueryResult } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { QueryView } from "../../components/feedback";
import type { TqlCatalog } from "./tql-api";

const MAX_FUNCTIONS = 60;

/** A description with its `code` spans (the schema's descriptions are markdown-ish). */
export function Described({ text }: { text: string }) {
  const parts = text.split("`");
  return (
    <>
      {parts.map((part, i) =>
        // Odd parts sat between backticks; positions are stable for a given text.
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string.
        i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>,
      )}
    </>
  );
}

/**
 * The tables and their columns with types, and a search over columns and functions: a click
 * inserts the name at the editor's cursor.
 */
export function SchemaPanel({
  catalog,
  onInsert,
}: {
  catalog: UseQueryResult<TqlCatalog>;
  onInsert: (text: string) => void;
}) {
  const [search, setSearch] = useState("");
  const term = useDeferredValue(search.trim().toLowerCase());
  return (
    <QueryView query={catalog} loadingLabel="Loading the schema…">
      {(data) => {
        const functions = term
          ? data.functions.filter(
              (f) =>
                f.name.toLowerCase().includes(term) || f.description.toLowerCase().includes(term),
            )
          : [];
        return (
          <div className="tql-schema">
            <label className="field">
              <span>Search columns and functions</span>
              <input
                type="search"
                value={search}
                placeholder="duration, quantile…"
                onChange={(e) => setSearch(e.target.value)}
              />
            </label>
            {data.tables.map((table) => {
              const columns = term
                ? table.columns.filter(
                    (c) => c.name.includes(term) || c.description.toLowerCase().includes(term),
                  )
                : table.columns;
              if (term && columns.length === 0) return null;
              return (
                <details key={table.name} open={term !== ""}>
                  <summary>
                    <code>{table.name}</code>{" "}
                    <span className="muted small">{table.columns.length} columns</span>
                  </summary>
                  <p className="muted small">
                    <Described text={table.description} />
                  </p>
                  <ul className="tql-columns">
                    {columns.map((column) => (
                      <li key={column.name}>
                        <button
                          type="button"
                          className="tql-insert"
                          title={column.description.replaceAll("`", "")}
                          onClick={() => onInsert(column.name)}
                        >
                          <code>{column.name}</code>
                          <span className="tql-col-type">{column.type}</span>
                        </button>
                      </li>
                    ))}
                  </ul>
                  <button
                    type="button"
                    className="button small"
                    onClick={() => onInsert(table.name)}
                  >
                    Insert <code>{table.name}</code>
                  </button>
                </details>
              );
            })}
            {term && (
              <section aria-label="Functions">
                <h3>Functions</h3>
                {functions.length === 0 && <p className="muted small">No function matches.</p>}
                <ul className="tql-columns">
                  {functions.slice(0, MAX_FUNCTIONS).map((f) => (
                    <li key={f.name}>
                      <button
                        type="button"
                        className="tql-insert"
                        title={f.description}
                        onClick={() => onInsert(`${f.name}(`)}
                      >
                        <code>{f.name}</code>
                        <span className="tql-col-type">
                          {f.params ? f.arguments : `(${f.arguments})`}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
                {functions.length > MAX_FUNCTIONS && (
                  <p className="muted small">
                    {functions.length - MAX_FUNCTIONS} more; refine the search.
                  </p>
                )}
              </section>
            )}
          </div>
        );
      }}
    </QueryView>
  );
}
