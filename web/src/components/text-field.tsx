import type { InputHTMLAttributes } from "react";
import { Field } from "./ui";

/**
 * A labelled text input of a form (`Field` with its input): the value as a string, the
 * server's message for `name` beside it; other attributes (required, maxLength, placeholder…)
 * go to the input.
 */
export function TextField({
  label,
  name,
  error,
  hint,
  value,
  onChange,
  ...input
}: {
  label: string;
  /** The field's name in the API's problem `errors`. */
  name?: string;
  error?: unknown;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "id" | "name">) {
  return (
    <Field label={label} error={error} {...(name ? { name } : {})} {...(hint ? { hint } : {})}>
      {(props) => (
        <input {...input} {...props} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}
