// The metadata tables of escalation policies and the escalations they run (src/meta/schema.ts
// maps them). Timestamps are ISO 8601 UTC text in every engine.

export interface EscalationPoliciesTable {
  id: string;
  project_id: string;
  name: string;
  /** JSON array of {delayMinutes, channelIds}. */
  steps: string;
  repeat: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface IncidentEscalationsTable {
  incident_id: string;
  project_id: string;
  policy_id: string;
  /** JSON copy of the policy: {name, steps, repeat}. */
  policy: string;
  /** JSON: the problem notification each step sends. */
  payload: string;
  /** active | stopped | completed */
  status: string;
  stop_reason: string | null;
  step: number;
  round: number;
  next_at: string | null;
  claimed_until: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}
