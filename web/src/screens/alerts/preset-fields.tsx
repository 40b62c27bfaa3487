import { useId } from "react";
import { Field } from "../../components/ui";
import type { AlertPreset, ParamSchema } from "./api";
import { isNumberParam, paramLabel } from "./draft";

/** The fixed choices of a parameter: an enum, or the constants of an anyOf (`service`). */
const choicesOf = (schema: ParamSchema): { values: string[]; open: boolean } => {
  if (schema.enum) return { values: schema.enum, open: false };
  const consts = (schema.anyOf ?? []).flatMap((s) => (s.const === undefined ? [] : [s.const]));
  return { values: consts, open: (schema.anyOf ?? []).some((s) => s.const === undefined) };
};

/**
 * The parameters of one preset, drawn from the JSON Schema the server derives from its own
 * validation: a closed set of choices is a select, a number a number input, the rest text
 * (with the known choices suggested). Empty means the default, which the placeholder shows.
 */
export function PresetFields({
  preset,
  values,
  onChange,
  error,
  disabled,
}: {
  preset: AlertPreset;
  values: Record<string, string>;
  onChange: (name: string, value: string) => void;
  error: unknown;
  disabled: boolean;
}) {
  const listId = useId();
  const required = new Set(preset.params.required ?? []);
  return (
    <div className="alr-params">
      {Object.entries(preset.params.properties).map(([name, schema]) => {
        const value = values[name] ?? "";
        const fallback = schema.default === undefined ? undefined : String(schema.default);
        const { values: choices, open } = choicesOf(schema);
        const label = `${paramLabel(name)}${required.has(name) ? " (required)" : ""}`;
        return (
          <Field
            key={name}
            label={label}
            name={`preset.params.${name}`}
            error={error}
            {...(schema.description ? { hint: schema.description.replaceAll("`", "") } : {})}
          >
            {(props) =>
              choices.length > 0 && !open ? (
                <select
                  {...props}
                  value={value}
                  disabled={disabled}
                  onChange={(e) => onChange(name, e.target.value)}
                >
                  <option value="">{fallback ? `Default (${fallback})` : "Any / none"}</option>
                  {choices.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
              ) : (
                <>
                  <input
                    {...props}
                    type={isNumberParam(schema) ? "number" : "text"}
                    step="any"
                    value={value}
                    disabled={disabled}
                    placeholder={fallback ?? (required.has(name) ? "" : "Any")}
                    list={choices.length > 0 ? `${listId}-${name}` : undefined}
                    onChange={(e) => onChange(name, e.target.value)}
                  />
                  {choices.length > 0 && (
                    <datalist id={`${listId}-${name}`}>
                      {choices.map((c) => (
                        <option key={c} value={c} />
                      ))}
                    </datalist>
                  )}
                </>
              )
            }
          </Field>
        );
      })}
    </div>
  );
}
