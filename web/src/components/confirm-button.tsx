import { useEffect, useRef, useState } from "react";

/**
 * A destructive action asked twice, without a modal: the first press shows what will happen
 * with the confirming button and Cancel; the second press does it. Focus moves to Cancel (the
 * least destructive choice, so Enter pressed by habit deletes nothing); Escape goes back.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel = `Confirm ${label.toLowerCase()}`,
  onConfirm,
  pending = false,
  accessibleName,
  size = "small",
}: {
  /** The first button ("Delete"). */
  label: string;
  /** What the second press does ("Deletes it with its delivery log."). */
  question?: string;
  /** The confirming button ("Delete endpoint"); `Confirm <label>` by default. */
  confirmLabel?: string;
  onConfirm: () => void;
  pending?: boolean;
  /** A longer name for screen readers ("Delete component Checkout"). */
  accessibleName?: string;
  /** Small in table rows; normal beside a page's other actions. */
  size?: "small" | "normal";
}) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  const button = size === "small" ? "button small" : "button";
  if (!asking)
    return (
      <button
        type="button"
        className={`${button} danger`}
        aria-label={accessibleName}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  return (
    <fieldset
      className="confirm-button"
      onKeyDown={(e) => {
        if (e.key === "Escape") setAsking(false);
      }}
    >
      {question && <legend>{question}</legend>}
      <button type="button" className={`${button} danger`} disabled={pending} onClick={onConfirm}>
        {pending ? "Working…" : confirmLabel}
      </button>
      <button type="button" className={button} ref={cancel} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </fieldset>
  );
}
