import { type ReactNode, useEffect, useRef } from "react";
import { CopyButton } from "../../components/ui";

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
