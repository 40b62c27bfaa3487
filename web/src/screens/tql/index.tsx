import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { errorMessage } from "../../api/client";
import { canWrite } from "../../api/session";
import { Empty, Loading, ProblemMessage } from "../../components/feedback";
import { SavedViews } from "../../components/saved-views";
import { PageHeader, Tabs } from "../../components/ui";
import { useTimeRange } from "../../lib/time-range";
import { useUrlParams } from "../../lib/url-state";
import { useProject } from "../project-context";
import { AddToDashboard } from "./add-to-dashboard";
import { builderTitle } from "./alert-from-query";
import { BuilderPane, builderText, ModeTabs, useBuilderMode } from "./builder-pane";
import { type EditorDiagnostic, type EditorHandle, TqlEditor } from "./editor";
import { EXAMPLE_QUERIES } from "./examples";
import { useQueryHistory } from "./history";
import { HistoryPanel } from "./history-panel";
import { ParamInputs } from "./param-inputs";
import {
  bucketSecondsFor,
  PARAM_PREFIX,
  readParamValues,
  runParameters,
  userPlaceholders,
  usesTimeWindow,
} from "./placeholders";
import { ResultActions } from "./result-actions";
import { ResultView } from "./result-view";
import { RunProblem } from "./run-problem";
import { SaveDrawer } from "./save-drawer";
import { SavedPanel } from "./saved-panel";
import { SchemaPanel } from "./schema-panel";
import {
  errorPosition,
  runTql,
  type SavedQueryView,
  type TqlResult,
  useSavedQueries,
  useSaveQuery,
  useTqlCatalog,
} from "./tql-api";
import { useUrlFollow } from "./url-follow";
import "./tql.css";

type Run =
  | { query: string; status: "running" }
  | { query: string; status: "cancelled" }
  | { query: string; status: "done"; result: TqlResult }
  | { query: string; status: "error"; error: unknown };

const PANELS = [
  { key: "saved", label: "Saved" },
  { key: "history", label: "History" },
  { key: "schema", label: "Schema" },
] as const;
type SidePanel = (typeof PANELS)[number]["key"];

/**
 * The TQL editor: write a query (highlighting and completion from the server's schema), run it
 * with Ctrl/Cmd+Enter, read the rows or chart them. The text is in the URL (`q=`), and so are
 * its `{name:Type}` placeholders' values (`var-<name>`) and, when it reads the window, the time
 * range: a link (a dashboard panel's "Explore") shares the query and opens with it run. The
 * Builder mode (`mode=builder`, its state in `builder=`) writes the TQL from choices instead;
 * "Edit as TQL" takes its text to the editor. Saved queries are the project's, the history
 * this browser's.
 */
export function Area() {
  const { projectId } = useProject();
  // Another project is another screen: no result or run carries over.
  return <TqlScreen key={projectId} />;
}

function TqlScreen() {
  const { projectId, role } = useProject();
  const writable = canWrite(role);
  const [params, setParams] = useUrlParams();
  const catalog = useTqlCatalog(projectId);
  const saved = useSavedQueries(projectId);
  const update = useSaveQuery(projectId);
  const { entries, add, clear } = useQueryHistory(projectId);
  const editor = useRef<EditorHandle>(null);
  const opened = useRef(params.get("q") ?? "");
  const [text, setText] = useState(opened.current);
  const [run, setRun] = useState<Run | null>(null);
  const [saving, setSaving] = useState(false);
  const [adding, setAdding] = useState(false);
  const [range, setRange] = useTimeRange();
  const typed = useMemo(() => readParamValues(params), [params]);
  const controller = useRef<AbortController | null>(null);
  const panelParam = params.get("panel");
  const panel: SidePanel =
    panelParam === "history" || panelParam === "schema" ? panelParam : "saved";
  const savedId = params.get("saved") ?? "";
  const current = saved.data?.find((s) => s.id === savedId);
  const { mode, setMode, builder, setBuilder } = useBuilderMode();
  const target = params.get("view") === "chart" ? "chart" : "table";
  const built = builderText(builder, target);
  const shown = mode === "builder" ? built : text;

  // A saved view opened here, or Back: the editor takes the URL's text.
  const markText = useUrlFollow(params.get("q"), (q) => {
    editor.current?.setText(q);
    setText(q);
  });
  // The text follows into the URL a moment after typing stops (replacing, not pushing, history).
  useEffect(() => {
    if (mode === "builder") return;
    const timer = setTimeout(() => {
      if ((new URLSearchParams(window.location.search).get("q") ?? "") === text) return;
      markText(text);
      setParams({ q: text });
    }, 400);
    return () => clearTimeout(timer);
  }, [text, setParams, mode, markText]);

  const execute = useCallback(
    async (query: string) => {
      if (!query.trim()) return;
      controller.current?.abort();
      const mine = new AbortController();
      controller.current = mine;
      setRun({ query, status: "running" });
      // The builder's text is its state's: it stays out of `q`, the editor's.
      if (new URLSearchParams(window.location.search).get("mode") !== "builder") {
        markText(query);
        setParams({ q: query });
      }
      const at = new Date().toISOString();
      // The values as the URL has them now (inputs may have changed since this was made).
      const parameters = runParameters(
        query,
        readParamValues(new URLSearchParams(window.location.search)),
        {
          from: range.from,
          to: range.to,
          bucketSeconds: bucketSecondsFor(range.ms),
        },
      );
      try {
        const result = await runTql(projectId, query, mine.signal, parameters);
        setRun({ query, status: "done", result });
        add({ query, at, ok: true, rowCount: result.rowCount, durationMs: result.durationMs });
      } catch (error) {
        if (mine.signal.aborted) {
          setRun((now) =>
            now?.query === query && now.status === "running" ? { query, status: "cancelled" } : now,
          );
          return;
        }
        setRun({ query, status: "error", error });
        add({ query, at, ok: false, error: errorMessage(error) });
      } finally {
        if (controller.current === mine) controller.current = null;
      }
    },
    [projectId, add, setParams, range, markText],
  );

  // A shared link opens with its query run; leaving the page stops waiting for a run.
  const ranOpened = useRef(false);
  const first = useRef(mode === "tql" ? opened.current : params.has("builder") ? built : "");
  useEffect(() => {
    if (!ranOpened.current && first.current.trim()) void execute(first.current);
    ranOpened.current = true;
    return () => controller.current?.abort();
  }, [execute]);

  const load = (query: string, savedQueryId?: string) => {
    editor.current?.setText(query);
    setText(query);
    setParams({ saved: savedQueryId, mode: undefined });
    void execute(query);
  };

  const closeSave = useCallback(() => setSaving(false), []);
  const closeAdd = useCallback(() => setAdding(false), []);
  const stale = run !== null && run.query !== shown;
  const editAsTql = (tql: string) => {
    setText(tql);
    markText(tql);
    setParams({ q: tql, mode: undefined, saved: undefined });
  };
  const diagnostic = useMemo((): EditorDiagnostic | null => {
    if (run?.status !== "error" || stale) return null;
    const position = errorPosition(run.error);
    return position ? { position, message: errorMessage(run.error) } : null;
  }, [run, stale]);

  return (
    <>
      <PageHeader title="TQL" actions={<SavedViews kind="query" />}>
        <p className="muted">
          ClickHouse SQL over this project's traces, logs, metrics, AI spans, HTTP requests and
          error groups.
        </p>
      </PageHeader>
      {update.isError && <ProblemMessage error={update.error} title="The query was not saved" />}
      <div className="tql-layout">
        <div className="tql-main">
          <ModeTabs mode={mode} onChange={setMode} />
          {mode === "builder" && (
            <BuilderPane
              builder={builder}
              onChange={setBuilder}
              target={target}
              running={run?.status === "running"}
              onRun={(query) => void execute(query)}
              onEditTql={editAsTql}
            />
          )}
          {mode === "tql" && (
            <div className="card tql-editor-card">
              <TqlEditor
                ref={editor}
                initialText={text}
                catalog={catalog.data}
                diagnostic={diagnostic}
                onChange={setText}
                onRun={(query) => void execute(query)}
              />
              <div className="tql-editor-bar">
                <button
                  type="button"
                  className="button primary"
                  disabled={!text.trim() || run?.status === "running"}
                  onClick={() => void execute(text)}
                >
                  Run
                </button>
                {run?.status === "running" && (
                  <button
                    type="button"
                    className="button"
                    onClick={() => controller.current?.abort()}
                  >
                    Cancel
                  </button>
                )}
                <span className="muted small">
                  <kbd>Ctrl</kbd>+<kbd>Enter</kbd> to run
                </span>
                {catalog.isError && (
                  <span className="tql-failed small" role="status">
                    Completion is off: the schema did not load ({errorMessage(catalog.error)})
                  </span>
                )}
                <span className="spacer" />
                {current && (
                  <span className="small">
                    <span className="muted">Saved query</span> <strong>{current.name}</strong>
                    {current.query !== text && <span className="muted"> (edited)</span>}
                  </span>
                )}
                {writable && (
                  <>
                    {current && (
                      <button
                        type="button"
                        className="button"
                        disabled={update.isPending || current.query === text || !text.trim()}
                        onClick={() => update.mutate({ id: current.id, input: { query: text } })}
                      >
                        {update.isPending ? "Saving…" : "Save changes"}
                      </button>
                    )}
                    {current && update.isSuccess && current.query === text && (
                      <span className="muted small" role="status">
                        Saved
                      </span>
                    )}
                    <button
                      type="button"
                      className="button"
                      disabled={!text.trim()}
                      onClick={() => setSaving(true)}
                    >
                      {current ? "Save as new…" : "Save…"}
                    </button>
                  </>
                )}
              </div>
            </div>
          )}
          <ParamInputs
            placeholders={userPlaceholders(shown)}
            values={typed}
            windowRange={usesTimeWindow(shown) ? range : null}
            onValue={(name, value) => setParams({ [`${PARAM_PREFIX}${name}`]: value })}
            onRange={setRange}
            onRun={() => void execute(shown)}
          />
          {run === null && mode === "tql" && (
            <Empty title="Write a query and run it">
              <p>Or start from one of these:</p>
              <ul className="tql-examples">
                {EXAMPLE_QUERIES.map((example) => (
                  <li key={example.title}>
                    <button
                      type="button"
                      className="button small"
                      onClick={() => load(example.query)}
                    >
                      {example.title}
                    </button>
                  </li>
                ))}
              </ul>
            </Empty>
          )}
          {run?.status === "running" && <Loading label="Running the query…" />}
          {run?.status === "cancelled" && (
            <p className="notice" role="status">
              Stopped waiting for the query. The server ends it at its time limit.
            </p>
          )}
          {run?.status === "error" && (
            <RunProblem
              error={run.error}
              stale={stale}
              onShow={(position) => editor.current?.focusAt(position)}
            />
          )}
          {run?.status === "done" && (
            <ResultView
              result={run.result}
              actions={
                writable && (
                  <ResultActions
                    projectId={projectId}
                    builder={mode === "builder" ? builder : null}
                    query={run.query}
                    name={current?.name ?? ""}
                    typed={typed}
                    onAdd={() => setAdding(true)}
                  />
                )
              }
            />
          )}
        </div>
        <aside className="card tql-side" aria-label="Saved queries, history and schema">
          <Tabs
            label="Side panel"
            tabs={PANELS}
            value={panel}
            onChange={(key) => setParams({ panel: key === "saved" ? undefined : key })}
          />
          {panel === "saved" && (
            <SavedPanel
              projectId={projectId}
              currentId={savedId}
              writable={writable}
              onLoad={(item: SavedQueryView) => load(item.query, item.id)}
              onDeleted={(item) => {
                if (item.id === savedId) setParams({ saved: undefined });
              }}
            />
          )}
          {panel === "history" && (
            <HistoryPanel entries={entries} onLoad={(query) => load(query)} onClear={clear} />
          )}
          {panel === "schema" && (
            <SchemaPanel catalog={catalog} onInsert={(name) => editor.current?.insert(name)} />
          )}
        </aside>
      </div>
      {adding && run?.status === "done" && (
        <AddToDashboard
          projectId={projectId}
          query={run.query}
          result={run.result}
          typed={typed}
          suggestedTitle={mode === "builder" ? builderTitle(builder) : (current?.name ?? "")}
          onClose={closeAdd}
        />
      )}
      {saving && (
        <SaveDrawer
          projectId={projectId}
          query={text}
          onClose={closeSave}
          onSaved={(item) => {
            setSaving(false);
            setParams({ saved: item.id, panel: undefined });
          }}
        />
      )}
    </>
  );
}
