import { useState } from "react";
import {
  REFRESH_INTERVALS,
  RELATIVE_RANGE,
  type RefreshInterval,
  type TimeRangeSetting,
} from "../../../../../src/contracts/dashboards";
import { Drawer, Field } from "../../../components/ui";
import { formatTime } from "../../../lib/format";
import { RANGE_PRESETS } from "../../../lib/time-range";
import { REFRESH_LABELS } from "../refresh-interval";
import { type DashboardDraft, parseTags } from "./dashboard-draft";

type Settings = Pick<DashboardDraft, "title" | "description" | "tags" | "timeRange" | "refresh">;

const describeRange = (range: TimeRangeSetting) =>
  typeof range === "string" ? range : `${formatTime(range.from)} – ${formatTime(range.to)}`;

/**
 * The dashboard's own settings: title, description, tags, the time range it opens on and its
 * auto refresh. Changes go into the draft at once (the dashboard's Save saves them).
 */
export function SettingsDrawer({
  settings,
  current,
  onChange,
  onClose,
}: {
  settings: Settings;
  /** The range the editor shows now, offered as the new default. */
  current: TimeRangeSetting;
  onChange: (change: Partial<Settings>) => void;
  onClose: () => void;
}) {
  const [tags, setTags] = useState(settings.tags.join(", "));
  const range = settings.timeRange;
  const relative = typeof range === "string" ? range : "";
  const [typedRange, setTypedRange] = useState(relative);
  const rangeValid = RELATIVE_RANGE.test(typedRange);
  return (
    <Drawer title="Dashboard settings" onClose={onClose}>
      <div className="form">
        <Field label="Title" name="title">
          {(props) => (
            <input
              {...props}
              value={settings.title}
              maxLength={200}
              required
              onChange={(e) => onChange({ title: e.target.value })}
            />
          )}
        </Field>
        <Field label="Description" name="description" hint="Shown under the title">
          {(props) => (
            <textarea
              {...props}
              rows={3}
              value={settings.description}
              maxLength={2000}
              onChange={(e) => onChange({ description: e.target.value })}
            />
          )}
        </Field>
        <Field label="Tags" name="tags" hint="Separated by commas; the list filters by them">
          {(props) => (
            <input
              {...props}
              value={tags}
              onChange={(e) => {
                setTags(e.target.value);
                onChange({ tags: parseTags(e.target.value) });
              }}
            />
          )}
        </Field>
        <Field
          label="Opens on"
          name="timeRange"
          hint={`Now: ${describeRange(range)}. A relative range such as 15m, 6h or 7d`}
        >
          {(props) => (
            <span className="dse-range">
              <input
                {...props}
                list="dse-range-presets"
                className="mono"
                value={typedRange}
                placeholder={typeof range === "string" ? "1h" : "an absolute window"}
                aria-invalid={typedRange !== "" && !rangeValid}
                onChange={(e) => {
                  const typed = e.target.value.trim();
                  setTypedRange(typed);
                  if (RELATIVE_RANGE.test(typed)) onChange({ timeRange: typed });
                }}
              />
              <datalist id="dse-range-presets">
                {RANGE_PRESETS.map((p) => (
                  <option key={p.key} value={p.key}>
                    {p.label}
                  </option>
                ))}
              </datalist>
              <button
                type="button"
                className="button small"
                onClick={() => {
                  onChange({ timeRange: current });
                  setTypedRange(typeof current === "string" ? current : "");
                }}
              >
                Use the range shown now
              </button>
            </span>
          )}
        </Field>
        <Field label="Auto refresh" name="refresh">
          {(props) => (
            <select
              {...props}
              value={settings.refresh}
              onChange={(e) => onChange({ refresh: e.target.value as RefreshInterval })}
            >
              {REFRESH_INTERVALS.map((r) => (
                <option key={r} value={r}>
                  {REFRESH_LABELS[r]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="tql-row-actions">
          <button type="button" className="button primary" onClick={onClose}>
            Done
          </button>
          <span className="muted small">Changes are kept in the draft until you save.</span>
        </div>
      </div>
    </Drawer>
  );
}
