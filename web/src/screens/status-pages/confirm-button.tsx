import { useEffect, useRef, useState } from "react";

/**
 * A destructive action in two steps, without a modal: the first press asks, the second does it;
 * Cancel (or Escape) goes back. Focus moves to the confirming button so keyboard users land on it.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  pending = false,
  accessibleName,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  /** A longer name for screen readers ("Delete component Checkout"). */
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
  return (
    <span className="sp-confirm">
      <button
        ref={confirm}
        type="button"
        className="button small danger"
        disabled={pending}
        onClick={onConfirm}
        onKeyDown={(e) => {
          if (e.key === "Escape") setAsking(false);
        }}
      >
        {pending ? "Working…" : confirmLabel}
      </button>
      <button type="button" className="button small" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
