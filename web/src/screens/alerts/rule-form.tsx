import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import {
  ALERT_INTERVAL_NAMES,
  ALERT_SEVERITIES,
  CONDITION_OPS,
  type ConditionOp,
  MAX_FOR_SECONDS,
  NO_DATA_MODES,
  type NoDataMode,
} from "../../../../src/contracts/alert-catalog";
import type { AlertRuleView } from "../../../../src/contracts/alerts";
import { ProblemMessage, QueryView } from "../../components/feedback";
import { QueryBuilder } from "../../components/query-builder/query-builder";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { type AlertPreset, usePresets, usePreview, useSaveRule } from "./api";
import { type RuleDraft, toRuleInput } from "./draft";
import { NotifyFields } from "./notify-fields";
import { PresetFields } from "./preset-fields";
import { PreviewPanel } from "./preview";

const OP_LABELS: Record<ConditionOp, string> = {
  ">": "> above",
  ">=": "≥ at or above",
  "<": "< below",
  "<=": "≤ at or below",
  "=": "= equal to",
  "!=": "≠ not equal to",
};
const SOURCE_LABELS: Record<RuleDraft["source"], string> = {
  preset: "From a preset",
  builder: "With the query builder",
  query: "From a TQL query",
};
const NO_DATA_LABELS: Record<NoDataMode, string> = {
  ok: "Treat as OK (firing series resolve)",
  alerting: "Treat as breaching",
  keep: "Keep every state as it is",
};

/** What the threshold is in, under its field: the preset's unit and bounds, or the query's own. */
function thresholdHint(source: RuleDraft["source"], preset: AlertPreset | undefined): string {
  if (source !== "preset") return "In the unit of the query's value";
  const unit = preset?.unit;
  if (!unit) return "In the metric's own unit";
  const bounds =
    unit.max !== undefined ? `${unit.min ?? "any"} to ${unit.max}` : `${unit.min ?? "any"} or more`;
  if (unit.name === "percent") return `In percent, ${bounds}, as the Overview shows it: 5 means 5%`;
  if (unit.name === "ms") return `In milliseconds, ${bounds}`;
  return `A ${unit.integer ? "whole " : ""}count, ${bounds}`;
}

/** The rule editor: what to watch (a preset or TQL), the condition, notifications; and a preview. */
export function RuleForm({
  projectId,
  initial,
  rule,
  writer,
}: {
  projectId: string;
  initial: RuleDraft;
  rule?: AlertRuleView;
  writer: boolean;
}) {
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState(initial);
  const presets = usePresets(projectId);
  const save = useSaveRule(projectId, rule?.id);
  const preview = usePreview(projectId);
  const [saved, setSaved] = useState(false);
  const set = (change: Partial<RuleDraft>) => {
    setSaved(false);
    // A refusal speaks of the draft as it was sent: once edited, it no longer applies.
    if (save.isError) save.reset();
    setDraft((d) => ({ ...d, ...change }));
  };
  const presetList = presets.data ?? [];
  const preset = presetList.find((p) => p.kind === draft.presetKind);
  const threshold = Number(draft.threshold);
  // The threshold is taken in the preset's unit (percent for an error rate), shown beside it.
  const unit = draft.source === "preset" ? preset?.unit : undefined;
  const runPreview = () => preview.mutate(toRuleInput(draft, presetList));
  // A saved rule shows its preview at once (viewers may not run queries: they see the last one).
  const previewed = useRef(false);
  useEffect(() => {
    if (!rule || !writer || previewed.current || !presets.data) return;
    previewed.current = true;
    preview.mutate(toRuleInput(initial, presets.data));
  }, [rule, writer, presets.data, initial, preview]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(toRuleInput(draft, presetList), {
      onSuccess: (next) => {
        if (!rule) navigate(`/${next.id}`);
        else {
          setSaved(true);
          runPreview();
        }
      },
    });
  };
  const error = save.error ?? preview.error;
  return (
    <div className="alr-editor">
      <form onSubmit={submit} noValidate className="alr-form" aria-label="Alert rule">
        <fieldset disabled={!writer} className="alr-fieldset">
          <section className="card">
            <h2>Rule</h2>
            <TextField
              label="Name"
              name="name"
              error={error}
              value={draft.name}
              onChange={(v) => set({ name: v })}
            />
            <TextField
              label="Description"
              name="description"
              error={error}
              value={draft.description}
              onChange={(v) => set({ description: v })}
            />
            <Field label="Severity" name="severity" error={error}>
              {(props) => (
                <select
                  {...props}
                  value={draft.severity}
                  onChange={(e) => set({ severity: e.target.value as RuleDraft["severity"] })}
                >
                  {ALERT_SEVERITIES.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              )}
            </Field>
          </section>
          <section className="card">
            <h2>What to watch</h2>
            <div className="alr-source" role="radiogroup" aria-label="Source">
              {(["preset", "builder", "query"] as const).map((source) => (
                <label key={source} className="inline-field">
                  <input
                    type="radio"
                    name="source"
                    checked={draft.source === source}
                    onChange={() => set({ source })}
                  />
                  {SOURCE_LABELS[source]}
                </label>
              ))}
            </div>
            {draft.source === "preset" ? (
              <QueryView query={presets}>
                {(list) => (
                  <>
                    <Field label="Preset" name="preset.kind" error={error}>
                      {(props) => (
                        <select
                          {...props}
                          value={draft.presetKind}
                          onChange={(e) => set({ presetKind: e.target.value, presetParams: {} })}
                        >
                          {list.map((p) => (
                            <option key={p.kind} value={p.kind}>
                              {p.title}
                            </option>
                          ))}
                        </select>
                      )}
                    </Field>
                    {preset && (
                      <>
                        <p className="muted small">{preset.description}</p>
                        <PresetFields
                          preset={preset}
                          values={draft.presetParams}
                          error={error}
                          disabled={!writer}
                          onChange={(name, value) =>
                            set({ presetParams: { ...draft.presetParams, [name]: value } })
                          }
                        />
                      </>
                    )}
                  </>
                )}
              </QueryView>
            ) : draft.source === "builder" ? (
              <QueryBuilder
                value={draft.builder}
                onChange={(builder) => set({ builder })}
                target="alert"
                onEditTql={(query) => set({ source: "query", query })}
              />
            ) : (
              <Field
                label="TQL query"
                name="query"
                error={error}
                hint="A SELECT returning a numeric column named value; other columns are labels, one series per label set. Look back over a window of its own."
              >
                {(props) => (
                  <textarea
                    {...props}
                    className="mono alr-query"
                    rows={6}
                    spellCheck={false}
                    value={draft.query}
                    placeholder="SELECT service_name AS service, count() AS value FROM logs WHERE level = 'error' AND timestamp > now() - INTERVAL 5 MINUTE GROUP BY service"
                    onChange={(e) => set({ query: e.target.value })}
                  />
                )}
              </Field>
            )}
          </section>
          <section className="card">
            <h2>Condition</h2>
            <div className="alr-grid">
              <Field label="Fire when value is" name="condition.op" error={error}>
                {(props) => (
                  <select
                    {...props}
                    value={draft.op}
                    onChange={(e) => set({ op: e.target.value as ConditionOp })}
                  >
                    {CONDITION_OPS.map((op) => (
                      <option key={op} value={op}>
                        {OP_LABELS[op]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                label={unit?.symbol ? `Threshold (${unit.symbol})` : "Threshold"}
                name="condition.threshold"
                error={error}
                hint={thresholdHint(draft.source, preset)}
              >
                {(props) => (
                  <span className="alr-unit-input">
                    <input
                      {...props}
                      type="number"
                      step="any"
                      {...(unit?.min === undefined ? {} : { min: unit.min })}
                      {...(unit?.max === undefined ? {} : { max: unit.max })}
                      value={draft.threshold}
                      onChange={(e) => set({ threshold: e.target.value })}
                    />
                    {unit?.symbol && (
                      <span className="alr-unit" data-testid="threshold-unit">
                        {unit.symbol}
                      </span>
                    )}
                  </span>
                )}
              </Field>
              <TextField
                label="For (seconds)"
                name="forSeconds"
                error={error}
                hint={`How long a series must breach before it fires; 0 = at once (max ${MAX_FOR_SECONDS})`}
                type="number"
                min={0}
                max={MAX_FOR_SECONDS}
                value={draft.forSeconds}
                onChange={(v) => set({ forSeconds: v })}
              />
              <Field label="Evaluate every" name="interval" error={error}>
                {(props) => (
                  <select
                    {...props}
                    value={draft.interval}
                    onChange={(e) => set({ interval: e.target.value as RuleDraft["interval"] })}
                  >
                    {ALERT_INTERVAL_NAMES.map((i) => (
                      <option key={i}>{i}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="When there is no data" name="noData" error={error}>
                {(props) => (
                  <select
                    {...props}
                    value={draft.noData}
                    onChange={(e) => set({ noData: e.target.value as NoDataMode })}
                  >
                    {NO_DATA_MODES.map((m) => (
                      <option key={m} value={m}>
                        {NO_DATA_LABELS[m]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
          </section>
          <NotifyFields
            projectId={projectId}
            draft={draft}
            set={set}
            error={error}
            labels={preview.data?.labels ?? []}
          />
        </fieldset>
        {save.isError && <ProblemMessage error={save.error} title="The rule was not saved" />}
        {writer && (
          <div className="alr-actions">
            <button type="submit" className="button primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : rule ? "Save changes" : "Create rule"}
            </button>
            <button
              type="button"
              className="button"
              disabled={preview.isPending}
              onClick={runPreview}
            >
              {preview.isPending ? "Previewing…" : "Preview"}
            </button>
            <Link href="/" className="button">
              {rule ? "Back to rules" : "Cancel"}
            </Link>
            <span role="status" className="muted small">
              {saved ? "Saved." : ""}
              {saved &&
                save.data?.warnings.map((w) => (
                  <span key={w.code} className="alr-warning">
                    {" "}
                    {w.message}
                  </span>
                ))}
            </span>
          </div>
        )}
      </form>
      <PreviewPanel
        writer={writer}
        preview={preview}
        threshold={Number.isFinite(threshold) && draft.threshold !== "" ? threshold : undefined}
        unit={unit?.name ?? null}
      />
    </div>
  );
}
