import { Field } from "../../components/ui";
import { capitalize } from "../../lib/format";
import { SEVERITIES, type Severity } from "./api";

/** The incident's severity, low to critical, with the server's message for `severity`. */
export function SeverityField({
  value,
  onChange,
  error,
}: {
  value: Severity;
  onChange: (severity: Severity) => void;
  error: unknown;
}) {
  return (
    <Field label="Severity" name="severity" error={error}>
      {(props) => (
        <select {...props} value={value} onChange={(e) => onChange(e.target.value as Severity)}>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {capitalize(s)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
