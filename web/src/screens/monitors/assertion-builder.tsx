import {
  ASSERTION_TYPE_NAMES,
  ASSERTION_TYPES,
  type AssertionType,
  type AssertionTypeInfo,
  MAX_ASSERTIONS,
  type Operator,
} from "../../../../src/contracts/monitor-catalog";
import { FieldGroup } from "../../components/field-group";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { capitalize } from "../../lib/format";
import { type DraftAssertion, newAssertion, targetField, withType } from "./draft";
import { RemoveRowButton } from "./pair-rows";

/** "not_equals" → "not equals": the operators read as the spec writes them. */
export const operatorLabel = (operator: string): string => operator.replaceAll("_", " ");

const VALUE_HINTS: Partial<Record<AssertionType, string>> = {
  status_code: "e.g. 200",
  response_time: "milliseconds, e.g. 3000",
  json_path: "compared as text; numbers under less/greater than",
};

/**
 * The assertions of one step. Each row: the type, then only the operators that type allows
 * (the server's own registry, bundled), then the path or header name the type needs, then the
 * value. A field the server refused shows its message beside it.
 */
export function AssertionBuilder({
  stepIndex,
  assertions,
  onChange,
  error,
  total,
}: {
  stepIndex: number;
  assertions: DraftAssertion[];
  onChange: (next: DraftAssertion[]) => void;
  error: unknown;
  /** Assertions across all steps, for the per-monitor limit. */
  total: number;
}) {
  const update = (index: number, change: (a: DraftAssertion) => DraftAssertion) =>
    onChange(assertions.map((a, i) => (i === index ? change(a) : a)));
  const base = `steps.${stepIndex}.assertions`;
  return (
    <FieldGroup legend="Assertions">
      {assertions.length === 0 && (
        <p className="muted small">
          None: the check uses the defaults (status code equals 200, response time less than 3000
          ms).
        </p>
      )}
      {assertions.map((assertion, index) => {
        const spec: AssertionTypeInfo = ASSERTION_TYPES[assertion.type];
        const target = spec.target;
        const field = targetField(assertion.type);
        const where = `${base}.${index}`;
        const n = index + 1;
        return (
          <fieldset key={assertion.key} className="mon-row mon-assertion">
            <legend className="visually-hidden">Assertion {n}</legend>
            <Field label="Type" name={`${where}.type`} error={error}>
              {(props) => (
                <select
                  {...props}
                  value={assertion.type}
                  onChange={(e) =>
                    update(index, (a) => withType(a, e.target.value as AssertionType))
                  }
                >
                  {ASSERTION_TYPE_NAMES.map((type) => (
                    <option key={type} value={type}>
                      {ASSERTION_TYPES[type].label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {target && field ? (
              <TextField
                label={capitalize(target.label)}
                name={`${where}.${field}`}
                error={error}
                className="mono"
                value={assertion.target}
                placeholder={field === "path" ? "$.data.id" : "content-type"}
                onChange={(v) => update(index, (a) => ({ ...a, target: v }))}
              />
            ) : (
              // Keeps the columns of every row aligned when this type reads no path or header.
              <span aria-hidden="true" />
            )}
            <Field label="Operator" name={`${where}.operator`} error={error}>
              {(props) => (
                <select
                  {...props}
                  value={assertion.operator}
                  onChange={(e) =>
                    update(index, (a) => ({ ...a, operator: e.target.value as Operator }))
                  }
                >
                  {spec.operators.map((operator) => (
                    <option key={operator} value={operator}>
                      {operatorLabel(operator)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <TextField
              label="Value"
              name={`${where}.value`}
              error={error}
              className="mono"
              value={assertion.value}
              placeholder={VALUE_HINTS[assertion.type] ?? ""}
              inputMode={
                assertion.type === "status_code" || assertion.type === "response_time"
                  ? "numeric"
                  : undefined
              }
              onChange={(v) => update(index, (a) => ({ ...a, value: v }))}
            />
            <RemoveRowButton
              what={`assertion ${n}`}
              onClick={() => onChange(assertions.filter((_, i) => i !== index))}
            />
          </fieldset>
        );
      })}
      <button
        type="button"
        className="button small"
        disabled={total >= MAX_ASSERTIONS}
        onClick={() => onChange([...assertions, newAssertion()])}
      >
        Add assertion
      </button>
      {total >= MAX_ASSERTIONS && (
        <span className="muted small"> A monitor has at most {MAX_ASSERTIONS} assertions.</span>
      )}
    </FieldGroup>
  );
}
