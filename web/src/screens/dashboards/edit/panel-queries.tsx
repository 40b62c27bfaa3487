import { useMemo, useRef, useState } from "react";
import { PANEL_MAX_QUERIES, type PanelQuery } from "../../../../../src/contracts/dashboards";
import { errorMessage } from "../../../api/client";
import { type EditorDiagnostic, TqlEditor } from "../../tql/editor";
import { userPlaceholders } from "../../tql/placeholders";
import { errorPosition, type TqlCatalog } from "../../tql/tql-api";

/** The next free query name: A, B, … */
function nextRefId(queries: readonly PanelQuery[]): string {
  const taken = new Set(queries.map((q) => q.refId));
  for (let i = 0; i < 26; i++) {
    const name = String.fromCharCode(65 + i);
    if (!taken.has(name)) return name;
  }
  return `Q${queries.length + 1}`;
}

/**
 * A panel's queries, each in the TQL screen's editor (highlighting, completion, Ctrl+Enter
 * runs the preview now, the server's error underlined where it located it). Placeholders the
 * dashboard has no variable for are named under the query, before the server refuses them.
 */
export function PanelQueries({
  queries,
  errors,
  catalog,
  variableNames,
  onChange,
  onRun,
}: {
  queries: readonly PanelQuery[];
  errors: readonly unknown[];
  catalog: TqlCatalog | undefined;
  variableNames: readonly string[];
  onChange: (queries: PanelQuery[]) => void;
  onRun: () => void;
}) {
  // The editors keep their own text: each is keyed for its life, not by its place or name.
  const serial = useRef(queries.length);
  const [keys, setKeys] = useState(() => queries.map((_, i) => i));
  const change = (index: number, patch: Partial<PanelQuery>) =>
    onChange(queries.map((q, i) => (i === index ? { ...q, ...patch } : q)));
  const add = () => {
    setKeys([...keys, serial.current++]);
    onChange([...queries, { refId: nextRefId(queries), tql: queries.at(-1)?.tql ?? "" }]);
  };
  const remove = (index: number) => {
    setKeys(keys.filter((_, i) => i !== index));
    onChange(queries.filter((_, i) => i !== index));
  };
  return (
    <div className="dse-queries">
      {queries.map((query, index) => (
        <QueryBlock
          key={keys[index] ?? `q${index}`}
          query={query}
          error={errors[index] ?? null}
          catalog={catalog}
          variableNames={variableNames}
          removable={queries.length > 1}
          onChange={(patch) => change(index, patch)}
          onRemove={() => remove(index)}
          onRun={onRun}
        />
      ))}
      <div className="tql-row-actions">
        <button
          type="button"
          className="button small"
          disabled={queries.length >= PANEL_MAX_QUERIES}
          onClick={add}
        >
          Add query
        </button>
        <span className="muted small">
          Variables as <code>{"{name:Type}"}</code>; the window as <code>$__timeFilter(col)</code>,{" "}
          <code>$__timeInterval(col)</code> or <code>{"{from:DateTime64(3)}"}</code>,{" "}
          <code>{"{to:DateTime64(3)}"}</code>, <code>{"{bucket_seconds:UInt32}"}</code>.
        </span>
      </div>
    </div>
  );
}

function QueryBlock({
  query,
  error,
  catalog,
  variableNames,
  removable,
  onChange,
  onRemove,
  onRun,
}: {
  query: PanelQuery;
  error: unknown;
  catalog: TqlCatalog | undefined;
  variableNames: readonly string[];
  removable: boolean;
  onChange: (patch: Partial<PanelQuery>) => void;
  onRemove: () => void;
  onRun: () => void;
}) {
  const diagnostic = useMemo((): EditorDiagnostic | null => {
    const position = errorPosition(error);
    return position ? { position, message: errorMessage(error) } : null;
  }, [error]);
  const unknown = userPlaceholders(query.tql).filter((p) => !variableNames.includes(p.name));
  return (
    <div className="dse-query">
      <div className="dse-query-head">
        <label className="inline-field">
          <span className="muted small">Query</span>
          <input
            className="dse-refid mono"
            aria-label="Query name"
            value={query.refId ?? ""}
            maxLength={16}
            pattern="[A-Za-z][A-Za-z0-9_]*"
            onChange={(e) =>
              onChange({ refId: e.target.value.replace(/[^A-Za-z0-9_]/g, "") || undefined })
            }
          />
        </label>
        <span className="spacer" />
        <button type="button" className="button small" onClick={onRun}>
          Run
        </button>
        {removable && (
          <button
            type="button"
            className="button small danger"
            aria-label={`Remove query ${query.refId ?? ""}`}
            onClick={onRemove}
          >
            Remove
          </button>
        )}
      </div>
      <TqlEditor
        initialText={query.tql}
        catalog={catalog}
        diagnostic={diagnostic}
        onChange={(tql) => onChange({ tql })}
        onRun={onRun}
      />
      {unknown.length > 0 && (
        <p className="dse-warning small" role="note">
          No variable named {unknown.map((p) => p.name).join(", ")}: add one under Variables, or the
          query is refused for the missing value.
        </p>
      )}
    </div>
  );
}
