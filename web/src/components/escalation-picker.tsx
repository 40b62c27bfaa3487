import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import type { EscalationPolicyView } from "../../../src/contracts/escalation";
import { api, projectApi } from "../api/client";
import { projectPath } from "../lib/project-path";
import { Field } from "./ui";

/** The query key of a project's escalation policies (the settings screen refreshes it). */
export const escalationPoliciesKey = (projectId: string) =>
  ["escalation-policies", projectId] as const;

export const fetchEscalationPolicies = (projectId: string) =>
  api<{ data: EscalationPolicyView[] }>(projectApi(projectId, "/escalation-policies")).then(
    (r) => r.data,
  );

export const useEscalationPolicies = (projectId: string) =>
  useQuery({
    queryKey: escalationPoliciesKey(projectId),
    queryFn: () => fetchEscalationPolicies(projectId),
  });

/** "2 steps, repeated once": what a policy does, in a few words. */
export function policySummary(policy: Pick<EscalationPolicyView, "steps" | "repeat">): string {
  const steps = `${policy.steps.length} step${policy.steps.length === 1 ? "" : "s"}`;
  if (policy.repeat === 0) return steps;
  return `${steps}, repeated ${policy.repeat === 1 ? "once" : `${policy.repeat} times`}`;
}

/**
 * Which escalation policy a monitor or an alert rule runs on its incidents (docs/escalation.md):
 * None or one of the project's policies. The server's message about `escalationPolicyId` shows
 * under it.
 */
export function EscalationPicker({
  projectId,
  value,
  onChange,
  error,
  hint,
  disabled,
}: {
  projectId: string;
  value: string | null;
  onChange: (policyId: string | null) => void;
  error: unknown;
  hint?: string;
  disabled?: boolean;
}) {
  const policies = useEscalationPolicies(projectId);
  const list = policies.data ?? [];
  // A policy deleted meanwhile (or not loaded yet) still shows as chosen, by its id.
  const missing = value !== null && !list.some((p) => p.id === value);
  const settings = `~${projectPath(projectId, "settings", "escalation")}`;
  return (
    <div className="escalation-picker">
      <Field
        label="Escalation policy"
        name="escalationPolicyId"
        error={error}
        hint={
          hint ??
          (policies.isError
            ? "The policies could not be loaded"
            : "Notifies more channels, step by step, until the incident is acknowledged or resolved")
        }
      >
        {(props) => (
          <select
            {...props}
            value={value ?? ""}
            disabled={disabled || policies.isPending}
            onChange={(e) => onChange(e.target.value === "" ? null : e.target.value)}
          >
            <option value="">None</option>
            {list.map((policy) => (
              <option key={policy.id} value={policy.id}>
                {policy.name} ({policySummary(policy)})
              </option>
            ))}
            {missing && <option value={value}>{value}</option>}
          </select>
        )}
      </Field>
      {policies.isSuccess && list.length === 0 && (
        <p className="muted small">
          No escalation policies yet. <Link href={settings}>Create one in Settings</Link>
        </p>
      )}
    </div>
  );
}
