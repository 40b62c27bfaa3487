import type { ReactNode } from "react";
import { FieldGroup } from "../../components/field-group";
import { TextField } from "../../components/text-field";

/** The keys of `T` whose values are text. */
type TextKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/** The "Remove" of one row of a step's list (a header, an assertion, a variable). */
export function RemoveRowButton({ what, onClick }: { what: string; onClick: () => void }) {
  return (
    <button
      type="button"
      className="button small mon-remove"
      aria-label={`Remove ${what}`}
      onClick={onClick}
    >
      Remove
    </button>
  );
}

/**
 * A step's list of two-field rows (headers: name and value; extracted variables: name and JSON
 * path): each row a fieldset named "<Item> n" with its Remove, then Add up to `max` rows. The
 * server's messages show at `<path>.<n>.<field>`.
 */
export function PairRows<T extends { key: string }>({
  legend,
  item,
  rows,
  fields,
  path,
  className,
  max,
  addLabel,
  blank,
  onChange,
  error,
  children,
}: {
  legend: string;
  /** A row's name, capitalized: "Header" gives "Header 2" and "Remove header 2". */
  item: string;
  rows: readonly T[];
  fields: readonly { key: TextKey<T>; label: string; placeholder: string }[];
  /** Where the rows are in the API's body ("steps.0.headers"). */
  path: string;
  className: string;
  max: number;
  addLabel: string;
  blank: () => T;
  onChange: (rows: T[]) => void;
  error: unknown;
  /** Text between the legend and the rows. */
  children?: ReactNode;
}) {
  const update = (index: number, key: TextKey<T>, value: string) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)));
  return (
    <FieldGroup legend={legend}>
      {children}
      {rows.map((row, index) => (
        <fieldset key={row.key} className={`mon-row ${className}`}>
          <legend className="visually-hidden">
            {item} {index + 1}
          </legend>
          {fields.map((field) => (
            <TextField
              key={field.key}
              label={field.label}
              name={`${path}.${index}.${field.key}`}
              error={error}
              className="mono"
              value={row[field.key] as string}
              placeholder={field.placeholder}
              onChange={(value) => update(index, field.key, value)}
            />
          ))}
          <RemoveRowButton
            what={`${item.toLowerCase()} ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          />
        </fieldset>
      ))}
      <button
        type="button"
        className="button small"
        disabled={rows.length >= max}
        onClick={() => onChange([...rows, blank()])}
      >
        {addLabel}
      </button>
    </FieldGroup>
  );
}
