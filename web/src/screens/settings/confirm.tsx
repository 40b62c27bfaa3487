import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { ApiError } from "../../api/client";
import { ProblemMessage } from "../../components/feedback";
import { CopyButton } from "../../components/ui";

/**
 * A destructive action in two steps, without a modal: the first press asks (saying what will
 * happen), the second does it; Cancel or Escape goes back. Focus moves to the confirming button.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  onConfirm,
  pending = false,
  accessibleName,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  /** A longer name for screen readers ("Revoke key ci"). */
  accessibleName?: string;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button
        type="button"
        className="button small danger"
        aria-label={accessibleName}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  const cancelOnEscape = (e: KeyboardEvent) => {
    if (e.key === "Escape") setAsking(false);
  };
  return (
    <span className="settings-confirm">
      <span>{question}</span>
      <button
        ref={confirm}
        type="button"
        className="button small danger"
        disabled={pending}
        onClick={onConfirm}
        onKeyDown={cancelOnEscape}
      >
        {pending ? "Working…" : confirmLabel}
      </button>
      <button
        type="button"
        className="button small"
        onClick={() => setAsking(false)}
        onKeyDown={cancelOnEscape}
      >
        Cancel
      </button>
    </span>
  );
}

/**
 * A form submission's error that no field shows: a field's own message is beside it (`Field`
 * with `name`); anything else (403, 409, a network failure) is shown here.
 */
export function FormError({ error, fields }: { error: unknown; fields: readonly string[] }) {
  if (!error) return null;
  if (error instanceof ApiError && fields.some((f) => error.fieldError(f) !== undefined))
    return null;
  return <ProblemMessage error={error} />;
}

/** A secret the API shows once: the value, a copy button and the warning that it is not shown again. */
export function SecretOnce({
  title,
  secret,
  children,
  onDismiss,
}: {
  title: string;
  secret: string;
  children?: ReactNode;
  onDismiss: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, []);
  return (
    <div className="notice secret-once" role="status" tabIndex={-1} ref={box}>
      <strong>{title}</strong>
      <p>
        Copy it now: it is shown <b>only this once</b> and cannot be read back later.
      </p>
      <div className="secret-row">
        <code className="secret-value">{secret}</code>
        <CopyButton text={secret} label="Copy" />
      </div>
      {children}
      <button type="button" className="button small" onClick={onDismiss}>
        I have copied it
      </button>
    </div>
  );
}
