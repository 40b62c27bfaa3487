import { MAX_ASSERTIONS, MAX_STEPS } from "../../../../src/contracts/monitor-catalog";
import { move, newStep, unknownPlaceholders, variablesBefore } from "./draft";
import { fieldMessage, type KindFieldsProps } from "./kind-fields";
import { StepEditor } from "./step-editor";

/** api and flow: the request (or the flow's steps), each with its assertions. */
export function HttpFields({ draft, update, error, resetError }: KindFieldsProps) {
  const flow = draft.type === "flow";
  const totalAssertions = draft.steps.reduce((n, s) => n + s.assertions.length, 0);
  /** Rows moved or removed: the server's field paths no longer point at the same rows. */
  const restructure = (steps: typeof draft.steps) => {
    resetError();
    update((d) => ({ ...d, steps }));
  };
  const stepsMessage = fieldMessage(error, "steps", true);
  return (
    <>
      <h2 className="mon-steps-title">
        {flow ? `Steps (${draft.steps.length} of ${MAX_STEPS})` : "Request"}
        <span className="muted small">
          {" "}
          · {totalAssertions} of {MAX_ASSERTIONS} assertions
        </span>
      </h2>
      {stepsMessage && (
        <p className="field-error" role="alert">
          {stepsMessage}
        </p>
      )}
      {draft.steps.map((step, index) => (
        <StepEditor
          key={step.key}
          step={step}
          index={index}
          count={draft.steps.length}
          flow={flow}
          variables={variablesBefore(draft, index)}
          unknown={unknownPlaceholders(draft, index)}
          totalAssertions={totalAssertions}
          error={error}
          onChange={(next) =>
            update((d) => ({ ...d, steps: d.steps.map((s, i) => (i === index ? next : s)) }))
          }
          onMove={(by) => restructure(move(draft.steps, index, by))}
          onRemove={() => restructure(draft.steps.filter((_, i) => i !== index))}
        />
      ))}
      {flow && (
        <button
          type="button"
          className="button"
          disabled={draft.steps.length >= MAX_STEPS}
          onClick={() => update((d) => ({ ...d, steps: [...d.steps, newStep()] }))}
        >
          Add step
        </button>
      )}
    </>
  );
}
