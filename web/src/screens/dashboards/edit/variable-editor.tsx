import { useEffect, useRef, useState } from "react";
import type { DashboardVariable } from "../../../../../src/contracts/dashboards";
import type { PanelScope } from "../panel-frame";
import {
  editOrigins,
  editVariables,
  type VariableEdit,
  variableProblem,
  variableRenames,
} from "./variable-edits";
import { TYPE_NAMES, VariableForm } from "./variable-form";

/**
 * The dashboard's variables, over the page: the list in the order the bar shows them (moved up
 * and down, added, removed) beside the chosen one's form. Apply puts them into the draft, with
 * the renames made (the queries' placeholders follow them); Cancel or Escape drops the changes.
 */
export function VariableEditor({
  projectId,
  initial,
  scope,
  onApply,
  onClose,
}: {
  projectId: string;
  initial: readonly DashboardVariable[];
  scope: PanelScope;
  onApply: (variables: DashboardVariable[], renames: Map<string, string>) => void;
  onClose: () => void;
}) {
  const [list, setList] = useState<DashboardVariable[]>([...initial]);
  const [origins, setOrigins] = useState(() => initial.map((v): string | null => v.name));
  const [selected, setSelected] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const changed = JSON.stringify(list) !== JSON.stringify(initial);
  const problems = list.map((_, i) => variableProblem(list, i));
  const edit = (change: VariableEdit) => {
    setOrigins((o) => editOrigins(o, change, list.length));
    setList((l) => editVariables(l, change));
  };

  const close = useRef(onClose);
  close.current = () => {
    if (!changed || window.confirm("Drop the changes to the variables?")) onClose();
  };
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    heading.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) close.current();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      previous?.focus();
    };
  }, []);

  const current = list[selected];
  const move = (index: number, to: number) => {
    edit({ kind: "move", index, to });
    if (selected === index) setSelected(to);
  };
  return (
    <div className="dse-editor" role="dialog" aria-modal="true" aria-label="Variables">
      <header className="dse-editor-head">
        <h2 ref={heading} tabIndex={-1}>
          Variables
        </h2>
        <span className="spacer" />
        <button type="button" className="button" onClick={() => close.current()}>
          Cancel
        </button>
        <button
          type="button"
          className="button primary"
          disabled={problems.some((p) => p !== null)}
          onClick={() => onApply(list, variableRenames(origins, list))}
        >
          Apply
        </button>
      </header>
      <div className="dse-editor-body dse-variables">
        <aside className="dse-variable-list" aria-label="The dashboard's variables">
          <ol>
            {list.map((variable, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat while edited; the place is the identity
                key={index}
                className={index === selected ? "selected" : ""}
              >
                <button
                  type="button"
                  className="dse-variable-pick"
                  aria-current={index === selected}
                  onClick={() => setSelected(index)}
                >
                  <span className="mono">{variable.name}</span>{" "}
                  <span className="muted small">{TYPE_NAMES[variable.type]}</span>
                  {problems[index] && (
                    <span className="field-error small"> · {problems[index]?.message}</span>
                  )}
                </button>
                <span className="dse-variable-moves">
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Move ${variable.name} up`}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Move ${variable.name} down`}
                    disabled={index === list.length - 1}
                    onClick={() => move(index, index + 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="button small danger"
                    aria-label={`Remove ${variable.name}`}
                    onClick={() => {
                      edit({ kind: "remove", index });
                      setSelected((s) =>
                        Math.max(0, s > index ? s - 1 : Math.min(s, list.length - 2)),
                      );
                    }}
                  >
                    ✕
                  </button>
                </span>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="button small"
            onClick={() => {
              edit({ kind: "add" });
              setSelected(list.length);
            }}
          >
            Add variable
          </button>
          <p className="muted small">
            A panel query reads a variable as <code>{"{name:Type}"}</code>, e.g.{" "}
            <code>{"service_name = {service:String}"}</code>, or{" "}
            <code>{"service_name IN {services:Array(String)}"}</code> for several values. Each
            variable may use the ones above it.
          </p>
        </aside>
        <div className="dse-editor-main">
          {current ? (
            <VariableForm
              key={selected}
              projectId={projectId}
              variable={current}
              problem={problems[selected] ?? null}
              scope={scope}
              onChange={(change) => edit({ kind: "change", index: selected, change })}
              onRetype={(type) => edit({ kind: "retype", index: selected, type })}
            />
          ) : (
            <p className="empty">
              <strong>No variables</strong>
              Add one to filter every panel by a service, an environment, or any value.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
