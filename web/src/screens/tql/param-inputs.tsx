import { TimeRangePicker } from "../../components/ui";
import type { RangeChoice, TimeRange } from "../../lib/time-range";
import { inputKind, PARAM_PREFIX, type Placeholder } from "./placeholders";

/**
 * The values of a query's `{name:Type}` placeholders, one input each (a number, a checkbox, a
 * comma-separated list, or text), kept in the URL as `var-<name>` so a link (a dashboard's
 * "Explore") carries them; and the time range when the query reads the window (a macro or
 * `{from}`/`{to}`/`{bucket_seconds}`). The server checks each value against its type.
 */
export function ParamInputs({
  placeholders,
  values,
  windowRange,
  onValue,
  onRange,
  onRun,
}: {
  placeholders: readonly Placeholder[];
  values: Readonly<Record<string, readonly string[]>>;
  /** The window the query is given, when it reads one. */
  windowRange: TimeRange | null;
  onValue: (name: string, text: string | undefined) => void;
  onRange: (next: RangeChoice) => void;
  onRun: () => void;
}) {
  if (placeholders.length === 0 && !windowRange) return null;
  return (
    <fieldset className="tql-params">
      <legend className="small">Parameters</legend>
      {placeholders.map((p) => {
        const kind = inputKind(p.type);
        const text = (values[p.name] ?? []).join(kind === "list" ? ", " : "");
        const id = `${PARAM_PREFIX}${p.name}`;
        return (
          <label key={p.name} className="tql-param" htmlFor={id}>
            <span className="mono small">
              {p.name} <span className="muted">{p.type}</span>
            </span>
            {kind === "bool" ? (
              <input
                id={id}
                type="checkbox"
                checked={text === "true" || text === "1"}
                onChange={(e) => onValue(p.name, e.target.checked ? "true" : "false")}
              />
            ) : (
              <input
                id={id}
                className="mono"
                type={kind === "number" ? "number" : "text"}
                step="any"
                value={text}
                placeholder={
                  kind === "list"
                    ? "a, b, c"
                    : p.type.startsWith("Date")
                      ? "2026-03-01T10:00:00Z"
                      : ""
                }
                onChange={(e) => onValue(p.name, e.target.value || undefined)}
                onKeyDown={(e) => {
                  if (e.key === "Enter") onRun();
                }}
              />
            )}
          </label>
        );
      })}
      {windowRange && (
        <div className="tql-param">
          <span className="small">
            Window <span className="muted">$__timeFilter, from, to, bucket_seconds</span>
          </span>
          <TimeRangePicker range={windowRange} onChange={onRange} />
        </div>
      )}
    </fieldset>
  );
}
