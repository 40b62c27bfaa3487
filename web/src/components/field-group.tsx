import { type ReactNode, useId } from "react";
import { ApiError } from "../api/client";

/**
 * Controls that answer one question together (checkboxes, rows of fields) in a box under their
 * legend; with `name`, the server's message for that field is under them and marks the box.
 */
export function FieldGroup({
  legend,
  name,
  error,
  className,
  children,
}: {
  legend: ReactNode;
  /** The field's name in the API's problem `errors` ("channelIds"). */
  name?: string;
  error?: unknown;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  const message = name && error instanceof ApiError ? error.fieldError(name) : undefined;
  const classes = ["field-group", message && "invalid", className].filter(Boolean).join(" ");
  return (
    <fieldset className={classes} aria-describedby={message ? id : undefined}>
      <legend>{legend}</legend>
      {children}
      {message && (
        <small id={id} className="field-error" role="alert">
          {message}
        </small>
      )}
    </fieldset>
  );
}

/** A checkbox list's selection with `item` checked (`on`) or not. */
export const toggled = <T,>(selected: readonly T[], item: T, on: boolean): T[] =>
  on ? [...selected, item] : selected.filter((x) => x !== item);
