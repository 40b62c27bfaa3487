import { useEffect, useRef, useState } from "react";

/**
 * A destructive action asked twice: the first press shows the question with Confirm and Cancel
 * (focus moves to Cancel, so Enter by habit does not delete); Escape cancels.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel = label,
  pending = false,
  onConfirm,
}: {
  label: string;
  question: string;
  confirmLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button type="button" className="button danger" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <fieldset
      className="confirm-inline"
      style={{
        display: "inline-flex",
        gap: 6,
        alignItems: "center",
        border: "none",
        padding: 0,
        margin: 0,
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") setAsking(false);
      }}
    >
      <legend className="small" style={{ float: "left", padding: 0 }}>
        {question}
      </legend>
      <button type="button" className="button danger" disabled={pending} onClick={onConfirm}>
        {pending ? "…" : `Confirm ${confirmLabel.toLowerCase()}`}
      </button>
      <button type="button" className="button" ref={cancel} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </fieldset>
  );
}
