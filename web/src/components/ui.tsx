import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { ApiError } from "../api/client";

export function PageHeader({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {children}
      </div>
      {actions && <div className="actions">{actions}</div>}
    </header>
  );
}

/** A labelled form control with the server's message for that field under it. */
export function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  /** The field's name in the API's problem `errors`. */
  name?: string;
  error?: unknown;
  hint?: string;
  children: (props: {
    id: string;
    "aria-invalid"?: boolean;
    "aria-describedby"?: string;
  }) => ReactNode;
}) {
  const id = useId();
  const message = name && error instanceof ApiError ? error.fieldError(name) : undefined;
  const describedBy = message ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field${message ? " invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(message ? { "aria-invalid": true } : {}),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
      })}
      {hint && !message && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}

/** A state as a coloured pill with its name in text (colour is never the only signal). */
export function StateBadge({
  state,
  tone,
}: {
  state: string;
  tone?: "ok" | "bad" | "warn" | "muted" | "info";
}) {
  const inferred =
    tone ??
    (/^(up|ok|resolved|operational|passed|success|delivered|enabled|active)$/i.test(state)
      ? "ok"
      : /^(down|firing|failed|failure|error|fatal|critical|open|high|major_outage)$/i.test(state)
        ? "bad"
        : /^(degraded|warn|warning|pending|retrying|medium|partial_outage|investigating|identified|monitoring)$/i.test(
              state,
            )
          ? "warn"
          : "muted");
  return <span className={`badge badge-${inferred}`}>{state.replaceAll("_", " ")}</span>;
}

export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button small"
      onClick={async () => {
        await navigator.clipboard.writeText(text).catch(() => undefined);
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? "Copied" : label}
    </button>
  );
}

/** A side panel over the page: Escape or the close button closes it, focus moves into it. */
export function Drawer({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      previous?.focus();
    };
  }, [onClose]);
  return (
    <aside
      className="drawer"
      role="dialog"
      aria-modal="false"
      aria-label={title}
      tabIndex={-1}
      ref={panel}
    >
      <header>
        <h2>{title}</h2>
        <button type="button" className="button small" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </header>
      <div className="drawer-body">{children}</div>
    </aside>
  );
}

/** The time range picker lives beside its styles; screens import it with the other pieces. */
export { TimeRangePicker } from "./time-range-picker";

export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: readonly { key: T; label: string }[];
  value: T;
  onChange: (key: T) => void;
  label: string;
}) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button
          key={t.key}
          type="button"
          role="tab"
          aria-selected={t.key === value}
          className={t.key === value ? "active" : ""}
          onClick={() => onChange(t.key)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** Key/value rows (span attributes, request details). */
export function KeyValues({ entries }: { entries: [string, unknown][] }) {
  if (entries.length === 0) return <p className="muted">None</p>;
  return (
    <dl className="kv">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{typeof v === "string" ? v : JSON.stringify(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
