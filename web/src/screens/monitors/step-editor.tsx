import {
  BODY_METHODS,
  HTTP_METHODS,
  type HttpMethod,
  MAX_EXTRACTIONS,
  MAX_HEADERS,
} from "../../../../src/contracts/monitor-catalog";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { AssertionBuilder } from "./assertion-builder";
import type { DraftStep } from "./draft";
import { newKey } from "./draft";
import { PairRows } from "./pair-rows";

interface StepEditorProps {
  step: DraftStep;
  index: number;
  count: number;
  flow: boolean;
  /** Variables earlier steps extract, usable here as {{name}}. */
  variables: string[];
  /** {{name}}s this step uses that no earlier step extracts. */
  unknown: string[];
  totalAssertions: number;
  error: unknown;
  onChange: (step: DraftStep) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}

/** One request of a monitor: method, URL, headers, body, assertions and (flows) extractions. */
export function StepEditor({
  step,
  index,
  count,
  flow,
  variables,
  unknown,
  totalAssertions,
  error,
  onChange,
  onMove,
  onRemove,
}: StepEditorProps) {
  const set = (change: Partial<DraftStep>) => onChange({ ...step, ...change });
  const at = `steps.${index}`;
  const n = index + 1;
  const hasBody = BODY_METHODS.has(step.method);
  return (
    <section className="card mon-step" aria-labelledby={`step-${step.key}`}>
      <header className="mon-step-header">
        <h3 id={`step-${step.key}`}>{flow ? `Step ${n}` : "Request"}</h3>
        {flow && (
          <div className="actions">
            <button
              type="button"
              className="button small"
              aria-label={`Move step ${n} up`}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            >
              ↑ Up
            </button>
            <button
              type="button"
              className="button small"
              aria-label={`Move step ${n} down`}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            >
              ↓ Down
            </button>
            <button
              type="button"
              className="button small danger"
              aria-label={`Remove step ${n}`}
              disabled={count === 1}
              onClick={onRemove}
            >
              Remove
            </button>
          </div>
        )}
      </header>
      {flow && (
        <TextField
          label="Step name"
          name={`${at}.name`}
          error={error}
          hint="Shown in results"
          value={step.name}
          placeholder={`Step ${n}`}
          onChange={(v) => set({ name: v })}
        />
      )}
      <div className="mon-request">
        <Field label="Method" name={`${at}.method`} error={error}>
          {(props) => (
            <select
              {...props}
              value={step.method}
              onChange={(e) => set({ method: e.target.value as HttpMethod })}
            >
              {HTTP_METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="URL"
          name={`${at}.url`}
          error={error}
          {...(variables.length > 0
            ? {
                hint: `Variables from earlier steps: ${variables.map((v) => `{{${v}}}`).join(" ")}`,
              }
            : {})}
        >
          {(props) => (
            <input
              {...props}
              className="mono"
              value={step.url}
              placeholder="https://api.example.com/health"
              spellCheck={false}
              onChange={(e) => set({ url: e.target.value })}
            />
          )}
        </Field>
      </div>
      <label className="inline-field mon-redirects">
        <input
          type="checkbox"
          checked={step.followRedirects}
          onChange={(e) => set({ followRedirects: e.target.checked })}
        />
        Follow redirects (up to 5)
      </label>
      {unknown.length > 0 && (
        <p className="notice small" role="note">
          {unknown.map((v) => `{{${v}}}`).join(", ")} {unknown.length === 1 ? "is" : "are"} not
          extracted by an earlier step: the text is sent as written.
        </p>
      )}
      <PairRows
        legend="Headers"
        item="Header"
        rows={step.headers}
        fields={[
          { key: "name", label: "Name", placeholder: "authorization" },
          {
            key: "value",
            label: "Value",
            placeholder: variables[0] ? `Bearer {{${variables[0]}}}` : "",
          },
        ]}
        path={`${at}.headers`}
        className="mon-header"
        max={MAX_HEADERS}
        addLabel="Add header"
        blank={() => ({ key: newKey(), name: "", value: "" })}
        onChange={(headers) => set({ headers })}
        error={error}
      />
      {hasBody && (
        <Field
          label="Body"
          name={`${at}.body`}
          error={error}
          hint="Sent as written; set a content-type header to match"
        >
          {(props) => (
            <textarea
              {...props}
              className="mono"
              rows={4}
              value={step.body}
              spellCheck={false}
              onChange={(e) => set({ body: e.target.value })}
            />
          )}
        </Field>
      )}
      <AssertionBuilder
        stepIndex={index}
        assertions={step.assertions}
        onChange={(assertions) => set({ assertions })}
        error={error}
        total={totalAssertions}
      />
      {flow && (
        <PairRows
          legend="Extract variables"
          item="Variable"
          rows={step.extract}
          fields={[
            { key: "name", label: "Name", placeholder: "token" },
            { key: "path", label: "JSON path", placeholder: "$.token" },
          ]}
          path={`${at}.extract`}
          className="mon-extract"
          max={MAX_EXTRACTIONS}
          addLabel="Add variable"
          blank={() => ({ key: newKey(), name: "", path: "" })}
          onChange={(extract) => set({ extract })}
          error={error}
        >
          <p className="muted small">
            From this step's JSON response, when the step passes; later steps use them as{" "}
            <code>{"{{name}}"}</code> in the URL, headers or body.
          </p>
        </PairRows>
      )}
    </section>
  );
}
