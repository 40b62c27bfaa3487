import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import type { CreateIncidentInput } from "../../../../src/contracts/incidents";
import { canManage } from "../../api/session";
import { FormProblem } from "../../components/feedback";
import { TextField } from "../../components/text-field";
import { Field } from "../../components/ui";
import { useProject } from "../project-context";
import { type Severity, useDeclareIncident } from "./api";
import { ComponentPicker } from "./component-picker";
import { SeverityField } from "./severity-field";

const FIELDS = ["title", "severity", "message", "componentIds"] as const;

/**
 * Declares an incident by hand: a title, a severity, an optional first public update and, for
 * owners and admins, the status page components it affects.
 */
export function DeclareForm() {
  const { projectId, orgId, role } = useProject();
  const [, navigate] = useLocation();
  const declare = useDeclareIncident(projectId);
  const [title, setTitle] = useState("");
  const [severity, setSeverity] = useState<Severity>("high");
  const [message, setMessage] = useState("");
  const [componentIds, setComponentIds] = useState<string[]>([]);
  const manager = canManage(role);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: CreateIncidentInput = { title, severity };
    if (message.trim()) input.message = message;
    if (manager && componentIds.length > 0) input.componentIds = componentIds;
    declare.mutate(input, { onSuccess: (incident) => navigate(`/${incident.id}`) });
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Declare an incident">
      <TextField
        label="Title"
        name="title"
        error={declare.error}
        hint="What is wrong, as users see it"
        value={title}
        required
        maxLength={200}
        placeholder="Checkout payments failing"
        onChange={setTitle}
      />
      <SeverityField value={severity} onChange={setSeverity} error={declare.error} />
      <Field
        label="First update"
        name="message"
        error={declare.error}
        hint="Optional. Posted as a public update (investigating): status pages show it"
      >
        {(props) => (
          <textarea
            {...props}
            value={message}
            maxLength={10_000}
            onChange={(e) => setMessage(e.target.value)}
          />
        )}
      </Field>
      {manager ? (
        <ComponentPicker
          orgId={orgId}
          selected={componentIds}
          onChange={setComponentIds}
          error={declare.error}
        />
      ) : (
        <p className="muted small">
          Owners and admins can also put the incident on status page components.
        </p>
      )}
      <FormProblem error={declare.error} fields={FIELDS} />
      <button type="submit" className="button primary" disabled={declare.isPending}>
        {declare.isPending ? "Declaring…" : "Declare incident"}
      </button>
    </form>
  );
}
