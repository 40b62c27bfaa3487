import { useMemo, useRef, useState } from "react";
import { PANEL_MAX_QUERIES, type PanelQuery } from "../../../../../src/contracts/dashboards";
import { type BuilderQuery, emptyBuilderQuery } from "../../../../../src/contracts/query-builder";
import type { BuilderTarget } from "../../../../../src/contracts/query-builder-tql";
import { errorMessage } from "../../../api/client";
import { compileBuilder } from "../../../components/query-builder/builder-state";
import { QueryBuilder } from "../../../components/query-builder/query-builder";
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
 * A query may be built with the query builder instead (`target`: a chart for panels over time);
 * its TQL is the query's, and "Edit as TQL" takes it back to the editor. The panel keeps the TQL.
 */
export function PanelQueries({
  queries,
  errors,
  catalog,
  variableNames,
  target,
  onChange,
  onRun,
}: {
  queries: readonly PanelQuery[];
  errors: readonly unknown[];
  catalog: TqlCatalog | undefined;
  variableNames: readonly string[];
  target: BuilderTarget;
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
          target={target}
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
  target,
  removable,
  onChange,
  onRemove,
  onRun,
}: {
  query: PanelQuery;
  error: unknown;
  catalog: TqlCatalog | undefined;
  variableNames: readonly string[];
  target: BuilderTarget;
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
  const [builder, setBuilder] = useState<BuilderQuery | null>(null);
  // The editor reads its text once: back from the builder, a new one starts with its TQL.
  const [editorKey, setEditorKey] = useState(0);
  const build = (next: BuilderQuery) => {
    setBuilder(next);
    const compiled = compileBuilder(next, target);
    if (compiled.ok) onChange({ tql: compiled.tql });
  };
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
        {!builder && (
          <button
            type="button"
            className="button small"
            onClick={() => build(emptyBuilderQuery())}
            title="Build this query by choosing a source, filters and aggregations (replaces its TQL)"
          >
            Query builder
          </button>
        )}
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
      {builder ? (
        <QueryBuilder
          value={builder}
          onChange={build}
          target={target}
          onEditTql={(tql) => {
            onChange({ tql });
            setBuilder(null);
            setEditorKey((k) => k + 1);
          }}
        />
      ) : (
        <TqlEditor
          key={editorKey}
          initialText={query.tql}
          catalog={catalog}
          diagnostic={diagnostic}
          onChange={(tql) => onChange({ tql })}
          onRun={onRun}
        />
      )}
      {unknown.length > 0 && (
        <p className="dse-warning small" role="note">
          No variable named {unknown.map((p) => p.name).join(", ")}: add one under Variables, or the
          query is refused for the missing value.
        </p>
      )}
    </div>
  );
}
