import { useEffect, useRef, useState } from "react";
import { ProblemMessage } from "../../components/feedback";
import { Highlighted } from "./highlighted";
import { levelTone, useLogContext } from "./logs-api";

const STEP = 20;
const MAX = 200;

/** Time of day to the millisecond: the records around one are seconds apart, the day is the drawer's. */
const timeOfDay = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  fractionalSecondDigits: 3,
  hour12: false,
});

/**
 * "Show context": the records the same service and instance wrote just before and after this
 * one, oldest first, this one marked; a click opens another in the drawer.
 */
export function LogContextSection({
  projectId,
  logId,
  terms,
  open,
  onOpen,
  onSelect,
}: {
  projectId: string;
  logId: string;
  terms: readonly string[];
  /** Shown: the drawer keeps this while it moves from record to record. */
  open: boolean;
  onOpen: (open: boolean) => void;
  onSelect: (id: string) => void;
}) {
  const [around, setAround] = useState(STEP);
  const context = useLogContext(projectId, logId, around, open);
  const list = useRef<HTMLOListElement>(null);
  const body = context.data;
  // The record itself in the middle of its list (the list scrolls, not the drawer).
  useEffect(() => {
    const element = list.current;
    const current = element?.querySelector<HTMLElement>("li.current");
    if (body?.logId !== logId || !element || !current) return;
    element.scrollTop = current.offsetTop - (element.clientHeight - current.clientHeight) / 2;
  }, [body, logId]);
  if (!open)
    return (
      <button type="button" className="button small" onClick={() => onOpen(true)}>
        Show context
      </button>
    );
  return (
    <section aria-labelledby="log-context" className="log-context">
      <div className="log-detail-heading">
        <h3 id="log-context">Context</h3>
        <button type="button" className="button small" onClick={() => onOpen(false)}>
          Hide
        </button>
      </div>
      {context.isError && <ProblemMessage error={context.error} />}
      {!body ? (
        !context.isError && <p className="muted small">Loading the records around it…</p>
      ) : (
        <>
          <p className="muted small">
            <strong>{body.service}</strong>
            {body.instance
              ? `, ${body.instance.field.replace(/^resource\./, "")} ${body.instance.value}`
              : ", any instance (the record names none)"}
            : {body.data.length - 1} log{body.data.length === 2 ? "" : "s"} around this one
          </p>
          {body.hasBefore && around < MAX && (
            <button
              type="button"
              className="button small"
              onClick={() => setAround(Math.min(MAX, around + STEP * 2))}
            >
              Show more
            </button>
          )}
          <ol
            ref={list}
            className="log-context-list"
            aria-label="Records around this one, oldest first"
          >
            {body.data.map((row) => (
              <li key={row.id} className={row.current ? "current" : undefined}>
                <button
                  type="button"
                  className={`log-context-row level-${levelTone(row.level)}`}
                  aria-current={row.current ? "true" : undefined}
                  disabled={row.current}
                  onClick={() => onSelect(row.id)}
                >
                  <time className="mono" dateTime={row.timestamp}>
                    {timeOfDay.format(new Date(row.timestamp))}
                  </time>
                  <span className={`badge badge-${levelTone(row.level)}`}>{row.level}</span>
                  <span className="log-context-message mono">
                    <Highlighted text={row.message} terms={terms} />
                  </span>
                </button>
              </li>
            ))}
          </ol>
          {body.hasAfter && around < MAX && (
            <button
              type="button"
              className="button small"
              onClick={() => setAround(Math.min(MAX, around + STEP * 2))}
            >
              Show more
            </button>
          )}
        </>
      )}
    </section>
  );
}
