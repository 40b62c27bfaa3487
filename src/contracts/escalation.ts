import { z } from "zod";

// Escalation policies (docs/escalation.md): a project's ordered steps of channels with delays,
// repeated until the incident is acknowledged or resolved, attached to monitors and alert rules.
// Request and response schemas shared by the server and the dashboard.

export const MAX_ESCALATION_STEPS = 10;
export const MAX_ESCALATION_STEP_CHANNELS = 20;
/** A step waits at most a day. */
export const MAX_ESCALATION_DELAY_MINUTES = 1440;
export const MAX_ESCALATION_REPEAT = 10;

const PolicyName = z.string().trim().min(1).max(100);

export const EscalationStepInput = z
  .object({
    delayMinutes: z
      .number()
      .int()
      .min(0)
      .max(MAX_ESCALATION_DELAY_MINUTES)
      .describe(
        "Minutes to wait before this step: after the incident opened (the first step), else after the previous step",
      ),
    channelIds: z
      .array(z.string().min(1).max(64))
      .min(1, "give at least one channel")
      .max(MAX_ESCALATION_STEP_CHANNELS)
      .describe("The project's notification channels this step notifies"),
  })
  .strict()
  .meta({ id: "EscalationStep" });
export type EscalationStepInput = z.infer<typeof EscalationStepInput>;

const Steps = z
  .array(EscalationStepInput)
  .min(1, "give at least one step")
  .max(MAX_ESCALATION_STEPS)
  .describe("Ordered steps, sent one after the other");

const Repeat = z
  .number()
  .int()
  .min(0)
  .max(MAX_ESCALATION_REPEAT)
  .describe("How many more times the whole list runs after the first pass (0 = once)");

export const CreateEscalationPolicyInput = z
  .object({ name: PolicyName, steps: Steps, repeat: Repeat.default(0) })
  .strict()
  .meta({ id: "CreateEscalationPolicyInput" });
export type CreateEscalationPolicyInput = z.input<typeof CreateEscalationPolicyInput>;

export const UpdateEscalationPolicyInput = z
  .object({ name: PolicyName.optional(), steps: Steps.optional(), repeat: Repeat.optional() })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { error: "give at least one field to change" })
  .meta({ id: "UpdateEscalationPolicyInput" });
export type UpdateEscalationPolicyInput = z.input<typeof UpdateEscalationPolicyInput>;

const NamedRef = z.object({ id: z.string(), name: z.string() });

/** A policy as the API shows it, with what uses it (a policy in use cannot be deleted). */
export const EscalationPolicyView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    steps: z.array(EscalationStepInput),
    repeat: z.number().int(),
    usedBy: z
      .object({ monitors: z.array(NamedRef), alertRules: z.array(NamedRef) })
      .describe("The monitors and alert rules it is attached to"),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "EscalationPolicy" });
export type EscalationPolicyView = z.infer<typeof EscalationPolicyView>;

export const ESCALATION_STATUSES = ["active", "stopped", "completed"] as const;

/** Where an incident's escalation stands. */
export const IncidentEscalationView = z
  .object({
    incidentId: z.string(),
    policyId: z.string(),
    policyName: z.string().describe("The policy's name when the incident opened"),
    status: z
      .enum(ESCALATION_STATUSES)
      .describe(
        "active: steps still to send; stopped: acknowledged or resolved; completed: every step of every round sent",
      ),
    stopReason: z.string().nullable().describe("acknowledged or resolved, once stopped"),
    stepsSent: z.number().int().describe("Steps sent so far, every round counted"),
    nextStep: z
      .number()
      .int()
      .nullable()
      .describe("The next step to send, 1-based; null unless active"),
    steps: z.number().int(),
    round: z.number().int().describe("The round of the next step (or the last), 1-based"),
    rounds: z.number().int().describe("1 + the policy's repeat count"),
    nextAt: z.string().nullable().describe("When the next step is due; null unless active"),
  })
  .meta({ id: "IncidentEscalation" });
export type IncidentEscalationView = z.infer<typeof IncidentEscalationView>;
