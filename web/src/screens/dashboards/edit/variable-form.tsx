import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import type { DashboardVariable } from "../../../../../src/contracts/dashboards";
import { errorMessage } from "../../../api/client";
import { Field } from "../../../components/ui";
import { TqlEditor } from "../../tql/editor";
import { useTqlCatalog } from "../../tql/tql-api";
import { dashboardKeys, panelRequest, runPanelQuery } from "../dashboards-api";
import type { PanelScope } from "../panel-frame";
import { ALL_VALUE, optionsFromResult } from "../variable-values";
import {
  parseValueList,
  type VariableChange,
  type VariableKind,
  type variableProblem,
} from "./variable-edits";

export const TYPE_NAMES: Record<VariableKind, string> = {
  query: "query",
  custom: "custom list",
  text: "text box",
};

/** How many of a query variable's values the preview lists. */
const PREVIEW_VALUES = 50;

/** One variable's settings: name, label, kind and its source, selection, default. */
export function VariableForm({
  projectId,
  variable,
  problem,
  scope,
  onChange,
  onRetype,
}: {
  projectId: string;
  variable: DashboardVariable;
  problem: ReturnType<typeof variableProblem>;
  scope: PanelScope;
  onChange: (change: VariableChange) => void;
  onRetype: (type: VariableKind) => void;
}) {
  const fieldError = (field: string) => (problem?.field === field ? problem.message : undefined);
  const options = useVariableOptions(projectId, variable, scope);
  return (
    <div className="dse-variable-form">
      <div className="dse-pair">
        <Labelled
          label="Name"
          error={fieldError("name")}
          hint="As the queries name it: {name:Type}"
        >
          {(id) => (
            <input
              id={id}
              className="mono"
              value={variable.name}
              maxLength={64}
              onChange={(e) => onChange({ name: e.target.value.trim() })}
            />
          )}
        </Labelled>
        <Labelled label="Label" hint="Shown in the bar; the name when empty">
          {(id) => (
            <input
              id={id}
              value={variable.label ?? ""}
              maxLength={100}
              onChange={(e) => onChange({ label: e.target.value })}
            />
          )}
        </Labelled>
      </div>
      <Field label="Kind">
        {(props) => (
          <select
            {...props}
            value={variable.type}
            onChange={(e) => onRetype(e.target.value as VariableKind)}
          >
            <option value="query">Query: values from a TQL query</option>
            <option value="custom">Custom list of values</option>
            <option value="text">Text box: whatever is typed</option>
          </select>
        )}
      </Field>
      {variable.type === "query" && (
        <QuerySource
          tql={variable.tql}
          projectId={projectId}
          error={fieldError("tql")}
          onChange={onChange}
        />
      )}
      {variable.type === "custom" && (
        <ValuesSource values={variable.values} error={fieldError("values")} onChange={onChange} />
      )}
      {variable.type !== "text" && (
        <div className="dse-pair">
          <label className="inline-field dse-check">
            <input
              type="checkbox"
              checked={variable.multi}
              onChange={(e) => onChange({ multi: e.target.checked })}
            />
            Several values at once
          </label>
          <label className="inline-field dse-check">
            <input
              type="checkbox"
              checked={variable.includeAll}
              onChange={(e) => onChange({ includeAll: e.target.checked })}
            />
            Offer “All”
          </label>
        </div>
      )}
      <DefaultField variable={variable} options={options.values} onChange={onChange} />
      {variable.type === "query" && (
        <section className="dse-variable-preview" aria-label="Values" aria-busy={options.loading}>
          <h3 className="small">
            Values now{" "}
            <span className="muted">
              (
              {options.loading
                ? "loading…"
                : `${options.values.length}${options.values.length >= 1000 ? ", the most kept" : ""}`}
              )
            </span>
          </h3>
          {options.error ? (
            <p className="field-error small" role="alert">
              {errorMessage(options.error)}
            </p>
          ) : (
            <p className="mono small">
              {options.values.slice(0, PREVIEW_VALUES).join(", ") || (
                <span className="muted">none</span>
              )}
              {options.values.length > PREVIEW_VALUES && " …"}
            </p>
          )}
        </section>
      )}
    </div>
  );
}

/** A query variable's values, as the dashboard will ask for them (a moment after edits rest). */
function useVariableOptions(projectId: string, variable: DashboardVariable, scope: PanelScope) {
  const tql = variable.type === "query" ? variable.tql : "";
  const [settled, setSettled] = useState(tql);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(tql), 700);
    return () => clearTimeout(timer);
  }, [tql]);
  const request = panelRequest(settled, scope.links.bound, scope.timeSetting);
  const answer = useQuery({
    queryKey: dashboardKeys.panel(projectId, request, scope.refreshKey),
    queryFn: ({ signal }) => runPanelQuery(projectId, request, signal),
    enabled: settled.trim() !== "",
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 30_000,
  });
  const values =
    variable.type === "custom"
      ? variable.values
      : variable.type === "query"
        ? optionsFromResult(answer.data)
        : [];
  return {
    values,
    loading: answer.isFetching,
    error: variable.type === "query" ? answer.error : null,
  };
}

function QuerySource({
  tql,
  projectId,
  error,
  onChange,
}: {
  tql: string;
  projectId: string;
  error: string | undefined;
  onChange: (change: VariableChange) => void;
}) {
  const catalog = useTqlCatalog(projectId);
  return (
    <div className={`field${error ? " invalid" : ""}`}>
      <span className="tql-field-label">
        Query (its first column gives the values, at most 1,000)
      </span>
      <TqlEditor
        initialText={tql}
        catalog={catalog.data}
        diagnostic={null}
        onChange={(text) => onChange({ tql: text })}
        onRun={() => undefined}
      />
      {error && <small className="field-error">{error}</small>}
    </div>
  );
}

function ValuesSource({
  values,
  error,
  onChange,
}: {
  values: readonly string[];
  error: string | undefined;
  onChange: (change: VariableChange) => void;
}) {
  const [text, setText] = useState(values.join(", "));
  return (
    <Labelled label="Values" error={error} hint="Separated by commas">
      {(id) => (
        <input
          id={id}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            onChange({ values: parseValueList(e.target.value) });
          }}
        />
      )}
    </Labelled>
  );
}

/** The value chosen when the dashboard opens: one of the options, All, or typed. */
function DefaultField({
  variable,
  options,
  onChange,
}: {
  variable: DashboardVariable;
  options: readonly string[];
  onChange: (change: VariableChange) => void;
}) {
  const current = variable.default;
  const offerAll = variable.type !== "text" && (variable.includeAll || variable.multi);
  if (variable.type !== "text" && !variable.multi && options.length > 0)
    return (
      <Field label="Default" hint="Chosen when the dashboard opens">
        {(props) => (
          <select
            {...props}
            value={typeof current === "string" ? current : ""}
            onChange={(e) => onChange({ default: e.target.value || undefined })}
          >
            <option value="">The first value</option>
            {offerAll && <option value={ALL_VALUE}>All</option>}
            {options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
            {typeof current === "string" &&
              current &&
              current !== ALL_VALUE &&
              !options.includes(current) && (
                <option value={current}>{current} (not a value now)</option>
              )}
          </select>
        )}
      </Field>
    );
  return <TypedDefault variable={variable} onChange={onChange} />;
}

/** The default as typed (a list as text while it is typed, so a comma can be written). */
function TypedDefault({
  variable,
  onChange,
}: {
  variable: DashboardVariable;
  onChange: (change: VariableChange) => void;
}) {
  const current = variable.default;
  const [text, setText] = useState(Array.isArray(current) ? current.join(", ") : (current ?? ""));
  return (
    <Field
      label="Default"
      hint={
        variable.multi
          ? `Separated by commas; ${ALL_VALUE} for All; empty: the first value`
          : variable.type === "text"
            ? "The text the box starts with"
            : "Empty: the first value"
      }
    >
      {(props) => (
        <input
          {...props}
          value={text}
          onChange={(e) => {
            const typed = e.target.value;
            setText(typed);
            if (variable.multi) {
              const list = parseValueList(typed);
              onChange({ default: list.length ? list : undefined });
            } else
              onChange({ default: typed === "" && variable.type !== "text" ? undefined : typed });
          }}
        />
      )}
    </Field>
  );
}

/** A label, an input made by `children(id)`, and a message under it (a local check's). */
function Labelled({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (id: string) => ReactNode;
}) {
  const id = `dse-${label.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <div className={`field${error ? " invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {error ? (
        <small className="field-error">{error}</small>
      ) : (
        hint && <small className="hint">{hint}</small>
      )}
    </div>
  );
}
