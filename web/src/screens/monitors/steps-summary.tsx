import { ASSERTION_TYPES } from "../../../../src/contracts/monitor-catalog";
import type { MonitorView } from "../../../../src/contracts/monitors";
import { operatorLabel } from "./assertion-builder";

/** The configuration tab of api and flow monitors: what each step requests, asserts and extracts. */
export function StepsSummary({ monitor }: { monitor: MonitorView }) {
  return (
    <div>
      <ol className="mon-config">
        {monitor.steps.map((step, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: stored steps shown in order; names may repeat
          <li key={`${i}-${step.name}`} className="card">
            <h3>
              {step.name}{" "}
              <code className="mon-url">
                {step.method} {step.url}
              </code>
            </h3>
            {step.headers.length > 0 && (
              <p className="small">
                Headers:{" "}
                {step.headers.map((h, k) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a header may repeat
                  <code key={k} className="mon-var">
                    {h.name}: {h.value}
                  </code>
                ))}
              </p>
            )}
            {step.body && (
              <details>
                <summary>Request body</summary>
                <pre>{step.body}</pre>
              </details>
            )}
            <ul className="mon-assert-list">
              {step.assertions.map((a, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: stored assertions shown in order; they may repeat
                <li key={`${j}-${a.type}`}>
                  {ASSERTION_TYPES[a.type].label}
                  {"path" in a && <code> {a.path}</code>}
                  {"name" in a && <code> {a.name}</code>} {operatorLabel(a.operator)}{" "}
                  <code>{a.value}</code>
                </li>
              ))}
            </ul>
            {step.extract.length > 0 && (
              <p className="small">
                Extracts:{" "}
                {step.extract.map((e) => (
                  <code key={e.name} className="mon-var">
                    {`{{${e.name}}}`} ← {e.path}
                  </code>
                ))}
              </p>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
