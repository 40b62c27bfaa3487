import {
  BODY_METHODS,
  HTTP_METHODS,
  MAX_EXTRACTIONS,
  MAX_HEADERS,
} from "../../../../src/monitors/catalog";
import { Field } from "../../components/ui";
import { AssertionBuilder } from "./assertion-builder";
import type { DraftStep } from "./draft";
import { newKey } from "./draft";

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
        <Field label="Step name" name={`${at}.name`} error={error} hint="Shown in results">
          {(props) => (
            <input
              {...props}
              value={step.name}
              placeholder={`Step ${n}`}
              onChange={(e) => set({ name: e.target.value })}
            />
          )}
        </Field>
      )}
      <div className="mon-request">
        <Field label="Method" name={`${at}.method`} error={error}>
          {(props) => (
            <select
              {...props}
              value={step.method}
              onChange={(e) => set({ method: e.target.value })}
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
      <fieldset className="mon-rows">
        <legend>Headers</legend>
        {step.headers.map((header, h) => (
          <fieldset key={header.key} className="mon-row mon-header">
            <legend className="visually-hidden">Header {h + 1}</legend>
            <Field label="Name" name={`${at}.headers.${h}.name`} error={error}>
              {(props) => (
                <input
                  {...props}
                  className="mono"
                  value={header.name}
                  placeholder="authorization"
                  onChange={(e) =>
                    set({
                      headers: step.headers.map((x, i) =>
                        i === h ? { ...x, name: e.target.value } : x,
                      ),
                    })
                  }
                />
              )}
            </Field>
            <Field label="Value" name={`${at}.headers.${h}.value`} error={error}>
              {(props) => (
                <input
                  {...props}
                  className="mono"
                  value={header.value}
                  placeholder={variables[0] ? `Bearer {{${variables[0]}}}` : ""}
                  onChange={(e) =>
                    set({
                      headers: step.headers.map((x, i) =>
                        i === h ? { ...x, value: e.target.value } : x,
                      ),
                    })
                  }
                />
              )}
            </Field>
            <button
              type="button"
              className="button small mon-remove"
              aria-label={`Remove header ${h + 1}`}
              onClick={() => set({ headers: step.headers.filter((_, i) => i !== h) })}
            >
              Remove
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className="button small"
          disabled={step.headers.length >= MAX_HEADERS}
          onClick={() =>
            set({ headers: [...step.headers, { key: newKey(), name: "", value: "" }] })
          }
        >
          Add header
        </button>
      </fieldset>
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
        <fieldset className="mon-rows">
          <legend>Extract variables</legend>
          <p className="muted small">
            From this step's JSON response, when the step passes; later steps use them as{" "}
            <code>{"{{name}}"}</code> in the URL, headers or body.
          </p>
          {step.extract.map((rule, e) => (
            <fieldset key={rule.key} className="mon-row mon-extract">
              <legend className="visually-hidden">Variable {e + 1}</legend>
              <Field label="Name" name={`${at}.extract.${e}.name`} error={error}>
                {(props) => (
                  <input
                    {...props}
                    className="mono"
                    value={rule.name}
                    placeholder="token"
                    onChange={(ev) =>
                      set({
                        extract: step.extract.map((x, i) =>
                          i === e ? { ...x, name: ev.target.value } : x,
                        ),
                      })
                    }
                  />
                )}
              </Field>
              <Field label="JSON path" name={`${at}.extract.${e}.path`} error={error}>
                {(props) => (
                  <input
                    {...props}
                    className="mono"
                    value={rule.path}
                    placeholder="$.token"
                    onChange={(ev) =>
                      set({
                        extract: step.extract.map((x, i) =>
                          i === e ? { ...x, path: ev.target.value } : x,
                        ),
                      })
                    }
                  />
                )}
              </Field>
              <button
                type="button"
                className="button small mon-remove"
                aria-label={`Remove variable ${e + 1}`}
                onClick={() => set({ extract: step.extract.filter((_, i) => i !== e) })}
              >
                Remove
              </button>
            </fieldset>
          ))}
          <button
            type="button"
            className="button small"
            disabled={step.extract.length >= MAX_EXTRACTIONS}
            onClick={() =>
              set({ extract: [...step.extract, { key: newKey(), name: "", path: "" }] })
            }
          >
            Add variable
          </button>
        </fieldset>
      )}
    </section>
  );
}
