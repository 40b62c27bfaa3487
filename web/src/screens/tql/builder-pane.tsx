import { useCallback, useEffect, useState } from "react";
import type { BuilderQuery } from "../../../../src/contracts/query-builder";
import type { BuilderTarget } from "../../../../src/contracts/query-builder-tql";
import {
  BUILDER_PARAM,
  builderParam,
  compileBuilder,
  initialBuilder,
  readBuilderParam,
} from "../../components/query-builder/builder-state";
import { QueryBuilder } from "../../components/query-builder/query-builder";
import { Tabs } from "../../components/ui";
import { useUrlParams } from "../../lib/url-state";
import { useUrlFollow } from "./url-follow";

export type ScreenMode = "tql" | "builder";

const MODES = [
  { key: "builder", label: "Builder" },
  { key: "tql", label: "TQL" },
] as const;

/** Builder or TQL: how the screen's query is written. */
export function ModeTabs({
  mode,
  onChange,
}: {
  mode: ScreenMode;
  onChange: (mode: ScreenMode) => void;
}) {
  return <Tabs label="Write the query" tabs={MODES} value={mode} onChange={onChange} />;
}

/**
 * The TQL screen's mode (`mode=builder` in the URL) and the builder's state, which follows into
 * the URL (`builder=<json>`) a moment after an edit rests, so a link or a saved view opens the
 * builder as it was left (a saved view opened on this screen too).
 */
export function useBuilderMode() {
  const [params, setParams] = useUrlParams();
  const mode: ScreenMode = params.get("mode") === "builder" ? "builder" : "tql";
  const [builder, setBuilder] = useState(() => initialBuilder(params.get(BUILDER_PARAM)));
  const mark = useUrlFollow(params.get(BUILDER_PARAM), (text) => {
    const opened = readBuilderParam(text);
    if (opened) setBuilder(opened);
  });
  useEffect(() => {
    // Only the Builder tab keeps it: the editor's links stay as they were.
    if (mode !== "builder") return;
    const timer = setTimeout(() => {
      const text = builderParam(builder);
      if (new URLSearchParams(window.location.search).get(BUILDER_PARAM) === text) return;
      mark(text);
      setParams({ [BUILDER_PARAM]: text });
    }, 300);
    return () => clearTimeout(timer);
  }, [builder, setParams, mode, mark]);
  const setMode = useCallback(
    (next: ScreenMode) => setParams({ mode: next === "builder" ? "builder" : undefined }),
    [setParams],
  );
  return { mode, setMode, builder, setBuilder };
}

/** The builder's TQL for the screen's view (a chart is over time), or "" while incomplete. */
export function builderText(builder: BuilderQuery, target: BuilderTarget): string {
  const compiled = compileBuilder(builder, target);
  return compiled.ok ? compiled.tql : "";
}

/** The builder in a card, with Run beside its TQL. */
export function BuilderPane({
  builder,
  onChange,
  target,
  running,
  onRun,
  onEditTql,
}: {
  builder: BuilderQuery;
  onChange: (builder: BuilderQuery) => void;
  target: BuilderTarget;
  running: boolean;
  onRun: (tql: string) => void;
  onEditTql: (tql: string) => void;
}) {
  const text = builderText(builder, target);
  return (
    <div className="card tql-editor-card">
      <QueryBuilder
        value={builder}
        onChange={onChange}
        target={target}
        onEditTql={onEditTql}
        actions={
          <button
            type="button"
            className="button primary"
            disabled={!text || running}
            onClick={() => onRun(text)}
          >
            Run
          </button>
        }
      />
    </div>
  );
}
