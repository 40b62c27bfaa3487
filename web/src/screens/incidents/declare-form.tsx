import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { canManage } from "../../api/session";
import { Field } from "../../components/ui";
import { useProject } from "../project-context";
import { FormProblem } from "../status-pages/form-problem";
import { type DeclareInput, SEVERITIES, type Severity, useDeclareIncident } from "./api";
import { ComponentPicker } from "./component-picker";

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
    const input: DeclareInput = { title, severity };
    if (message.trim()) input.message = message;
    if (manager && componentIds.length > 0) input.componentIds = componentIds;
    declare.mutate(input, { onSuccess: (incident) => navigate(`/${incident.id}`) });
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Declare an incident">
      <Field label="Title" name="title" error={declare.error} hint="What is wrong, as users see it">
        {(props) => (
          <input
            {...props}
            value={title}
            required
            maxLength={200}
            placeholder="Checkout payments failing"
            onChange={(e) => setTitle(e.target.value)}
          />
        )}
      </Field>
      <Field label="Severity" name="severity" error={declare.error}>
        {(props) => (
          <select
            {...props}
            value={severity}
            onChange={(e) => setSeverity(e.target.value as Severity)}
          >
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s[0]?.toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        )}
      </Field>
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
