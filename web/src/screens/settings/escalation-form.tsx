import type { ChannelView } from "../../../../src/contracts/channels";
import {
  type CreateEscalationPolicyInput,
  type EscalationPolicyView,
  MAX_ESCALATION_DELAY_MINUTES,
  MAX_ESCALATION_REPEAT,
  MAX_ESCALATION_STEPS,
} from "../../../../src/contracts/escalation";
import { ApiError } from "../../api/client";
import { FieldGroup, toggled } from "../../components/field-group";
import { TextField } from "../../components/text-field";

/** A policy being edited; numbers stay text until sent (the server names a bad one). */
export interface PolicyDraft {
  name: string;
  repeat: string;
  steps: { delayMinutes: string; channelIds: string[] }[];
}

export const emptyPolicyDraft = (): PolicyDraft => ({
  name: "",
  repeat: "0",
  steps: [{ delayMinutes: "0", channelIds: [] }],
});

export const draftOfPolicy = (policy: EscalationPolicyView): PolicyDraft => ({
  name: policy.name,
  repeat: String(policy.repeat),
  steps: policy.steps.map((s) => ({
    delayMinutes: String(s.delayMinutes),
    channelIds: [...s.channelIds],
  })),
});

const toNumber = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text));

export const policyInput = (draft: PolicyDraft): CreateEscalationPolicyInput => ({
  name: draft.name,
  repeat: toNumber(draft.repeat),
  steps: draft.steps.map((s) => ({
    delayMinutes: toNumber(s.delayMinutes),
    channelIds: s.channelIds,
  })),
});

/** The fields a policy's problems may name, for the form's catch-all message. */
export const policyFields = (draft: PolicyDraft): string[] => [
  "name",
  "repeat",
  "steps",
  ...draft.steps.flatMap((_, i) => [`steps.${i}.delayMinutes`, `steps.${i}.channelIds`]),
];

/** The steps of a policy: each a wait and the channels it notifies, in order. */
export function StepsEditor({
  draft,
  onChange,
  channels,
  error,
}: {
  draft: PolicyDraft;
  onChange: (draft: PolicyDraft) => void;
  channels: ChannelView[];
  error: unknown;
}) {
  const setStep = (index: number, change: Partial<PolicyDraft["steps"][number]>) =>
    onChange({
      ...draft,
      steps: draft.steps.map((s, i) => (i === index ? { ...s, ...change } : s)),
    });
  const move = (index: number, by: number) => {
    const steps = [...draft.steps];
    const [step] = steps.splice(index, 1);
    if (step) steps.splice(index + by, 0, step);
    onChange({ ...draft, steps });
  };
  // The server names a refused channel by its place in the step's `channelIds`.
  const invalid = (index: number, channelId: string) =>
    error instanceof ApiError &&
    error.fieldError(
      `steps.${index}.channelIds.${draft.steps[index]?.channelIds.indexOf(channelId)}`,
    ) !== undefined;
  return (
    <ol className="escalation-steps">
      {draft.steps.map((step, index) => (
        // Steps have no identity but their place; the list is short and edited in place.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <li key={index} className="card escalation-step" aria-label={`Step ${index + 1}`}>
          <div className="escalation-step-header">
            <strong>Step {index + 1}</strong>
            <div className="settings-buttons">
              <button
                type="button"
                className="button small"
                disabled={index === 0}
                onClick={() => move(index, -1)}
                aria-label={`Move step ${index + 1} up`}
              >
                ↑
              </button>
              <button
                type="button"
                className="button small"
                disabled={index === draft.steps.length - 1}
                onClick={() => move(index, 1)}
                aria-label={`Move step ${index + 1} down`}
              >
                ↓
              </button>
              <button
                type="button"
                className="button small danger"
                disabled={draft.steps.length === 1}
                onClick={() =>
                  onChange({ ...draft, steps: draft.steps.filter((_, i) => i !== index) })
                }
                aria-label={`Remove step ${index + 1}`}
              >
                Remove
              </button>
            </div>
          </div>
          <TextField
            label={
              index === 0
                ? "Wait after the incident opens (minutes)"
                : "Wait after the previous step (minutes)"
            }
            name={`steps.${index}.delayMinutes`}
            error={error}
            type="number"
            min={0}
            max={MAX_ESCALATION_DELAY_MINUTES}
            value={step.delayMinutes}
            onChange={(delayMinutes) => setStep(index, { delayMinutes })}
          />
          <FieldGroup
            legend="Notify"
            name={`steps.${index}.channelIds`}
            error={error}
            className="channel-picker"
          >
            {channels.length === 0 && (
              <p className="muted small">No notification channels yet: add one first.</p>
            )}
            {channels.map((channel) => (
              <label key={channel.id} className="inline-field">
                <input
                  type="checkbox"
                  checked={step.channelIds.includes(channel.id)}
                  onChange={(e) =>
                    setStep(index, {
                      channelIds: toggled(step.channelIds, channel.id, e.target.checked),
                    })
                  }
                  aria-invalid={
                    (step.channelIds.includes(channel.id) && invalid(index, channel.id)) ||
                    undefined
                  }
                />
                {channel.name} <span className="muted small">({channel.type})</span>
              </label>
            ))}
          </FieldGroup>
        </li>
      ))}
      {draft.steps.length < MAX_ESCALATION_STEPS && (
        <li className="escalation-add-step">
          <button
            type="button"
            className="button"
            onClick={() =>
              onChange({
                ...draft,
                steps: [...draft.steps, { delayMinutes: "15", channelIds: [] }],
              })
            }
          >
            Add step
          </button>
        </li>
      )}
    </ol>
  );
}

/** Name, steps and repeat count. */
export function PolicyFields({
  draft,
  onChange,
  channels,
  error,
}: {
  draft: PolicyDraft;
  onChange: (draft: PolicyDraft) => void;
  channels: ChannelView[];
  error: unknown;
}) {
  return (
    <>
      <TextField
        label="Policy name"
        name="name"
        error={error}
        value={draft.name}
        onChange={(name) => onChange({ ...draft, name })}
        required
        maxLength={100}
      />
      <StepsEditor draft={draft} onChange={onChange} channels={channels} error={error} />
      <TextField
        label="Repeat the steps (times)"
        name="repeat"
        error={error}
        hint={`After the last step, run them all again; 0 = once (max ${MAX_ESCALATION_REPEAT})`}
        type="number"
        min={0}
        max={MAX_ESCALATION_REPEAT}
        value={draft.repeat}
        onChange={(repeat) => onChange({ ...draft, repeat })}
      />
    </>
  );
}
