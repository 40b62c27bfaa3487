import { type FormEvent, useState } from "react";
import type { IncidentPhase } from "../../../../src/contracts/incident-catalog";
import type { IncidentDetailView } from "../../../../src/contracts/incidents";
import { api } from "../../api/client";
import { FormProblem } from "../../components/feedback";
import { FieldGroup } from "../../components/field-group";
import { Field } from "../../components/ui";
import { capitalize } from "../../lib/format";
import { currentPhase, PHASES, useIncidentWrite } from "./api";

type Visibility = "public" | "private";
interface UpdateInput {
  visibility: Visibility;
  message: string;
  phase: IncidentPhase;
}

const VISIBILITIES: readonly { value: Visibility; label: string; note: string }[] = [
  { value: "public", label: "Public update", note: "shown on status pages" },
  { value: "private", label: "Private note", note: "your team only" },
];

const PHASE_HINT: Record<IncidentPhase, string> = {
  investigating: "Looking into it",
  identified: "The cause is known",
  monitoring: "A fix is out; watching",
  resolved: "Resolves the incident",
};

/**
 * Posts to the timeline: a public update with its phase (status pages show it; the phase
 * `resolved` resolves the incident) or a private note for the team. A resolved incident takes
 * private notes only: reopen it to post a public update.
 */
export function UpdateForm({
  projectId,
  incident,
}: {
  projectId: string;
  incident: IncidentDetailView;
}) {
  const active = incident.status === "active";
  const [visibility, setVisibility] = useState<Visibility>(active ? "public" : "private");
  const [phase, setPhase] = useState<IncidentPhase>(currentPhase(incident) ?? "investigating");
  const [message, setMessage] = useState("");
  const post = useIncidentWrite<UpdateInput>(projectId, incident.id, (base, input) =>
    input.visibility === "public"
      ? api(`${base}/updates`, {
          method: "POST",
          body: { message: input.message, phase: input.phase },
        })
      : api(`${base}/comments`, { method: "POST", body: { message: input.message } }),
  );
  const kind: Visibility = active ? visibility : "private";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    post.mutate({ visibility: kind, message, phase }, { onSuccess: () => setMessage("") });
  };
  return (
    <form className="card form inc-update" onSubmit={submit} aria-label="Post an update">
      <h2>Post to the timeline</h2>
      {active ? (
        <FieldGroup legend="Visibility">
          {VISIBILITIES.map((v) => (
            <label key={v.value} className="inc-check">
              <input
                type="radio"
                name="visibility"
                value={v.value}
                checked={visibility === v.value}
                onChange={() => setVisibility(v.value)}
              />
              <span>
                {v.label} <span className="muted small">({v.note})</span>
              </span>
            </label>
          ))}
        </FieldGroup>
      ) : (
        <p className="muted small">
          The incident is resolved: add a private note, or reopen it to post a public update.
        </p>
      )}
      {kind === "public" && (
        <Field label="Phase" name="phase" error={post.error} hint={PHASE_HINT[phase]}>
          {(props) => (
            <select
              {...props}
              value={phase}
              onChange={(e) => setPhase(e.target.value as IncidentPhase)}
            >
              {PHASES.map((p) => (
                <option key={p} value={p}>
                  {capitalize(p)}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label="Message" name="message" error={post.error}>
        {(props) => (
          <textarea
            {...props}
            value={message}
            required
            maxLength={10_000}
            onChange={(e) => setMessage(e.target.value)}
          />
        )}
      </Field>
      <FormProblem error={post.error} fields={["message", "phase"]} />
      <button type="submit" className="button primary" disabled={post.isPending}>
        {post.isPending
          ? "Posting…"
          : kind === "private"
            ? "Add private note"
            : phase === "resolved"
              ? "Post update and resolve"
              : "Post public update"}
      </button>
    </form>
  );
}
