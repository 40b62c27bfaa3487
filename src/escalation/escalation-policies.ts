import { type Ctx, nowIso } from "../context.js";
import {
  CreateEscalationPolicyInput,
  type EscalationPolicyView,
  UpdateEscalationPolicyInput,
} from "../contracts/escalation.js";
import { ConflictError, InvalidInputError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { MetaAccess, Repositories } from "../meta/meta-store.js";
import type {
  EscalationPolicyRecord,
  EscalationStepRecord,
} from "../meta/repositories/escalation-policies.js";
import { findInProject, requireFreeName } from "../projects/project-records.js";
import { requireProject } from "../projects/projects.js";

// Escalation policies' commands and queries (/api/projects/:projectId/escalation-policies…,
// docs/escalation.md). Members write, viewers read; a policy in use cannot be deleted.

type ProjectArgs = { ctx: Ctx; projectId: string };
type PolicyArgs = ProjectArgs & { policyId: string };

type UsedBy = EscalationPolicyView["usedBy"];
type Named = UsedBy["monitors"][number];

/** The policy a monitor's or alert rule's stored definition names, if any. */
export const policyIdOf = (definition: unknown): string | null => {
  const id = (definition as { escalationPolicyId?: unknown } | null)?.escalationPolicyId;
  return typeof id === "string" && id.length > 0 ? id : null;
};

/** The monitors and alert rules of the project attached to each policy (one read of each). */
async function usersByPolicy(repos: Repositories, projectId: string): Promise<Map<string, UsedBy>> {
  const [monitors, rules] = await Promise.all([
    repos.monitors.listByProject(projectId),
    repos.alertRules.listByProject(projectId),
  ]);
  const byPolicy = new Map<string, UsedBy>();
  const entry = (policyId: string) => {
    const used = byPolicy.get(policyId) ?? { monitors: [], alertRules: [] };
    byPolicy.set(policyId, used);
    return used;
  };
  const add = (list: (u: UsedBy) => Named[], item: { id: string; name: string }, def: unknown) => {
    const policyId = policyIdOf(def);
    if (policyId) list(entry(policyId)).push({ id: item.id, name: item.name });
  };
  for (const m of monitors) add((u) => u.monitors, m, m.definition);
  for (const r of rules) add((u) => u.alertRules, r, r.definition);
  return byPolicy;
}

const toView = (
  record: EscalationPolicyRecord,
  usedBy: UsedBy | undefined,
): EscalationPolicyView => ({
  ...record,
  usedBy: usedBy ?? { monitors: [], alertRules: [] },
});

const requirePolicy = (repos: Repositories, projectId: string, policyId: string) =>
  findInProject(repos.escalationPolicies, projectId, "Escalation policy", policyId);

/** Every step's channels must be the project's: 400 naming `steps.N.channelIds.M`. */
async function requireStepChannels(
  repos: Repositories,
  projectId: string,
  steps: readonly EscalationStepRecord[],
): Promise<void> {
  const known = new Set(
    (await repos.notificationChannels.listByProject(projectId)).map((c) => c.id),
  );
  const issues = steps.flatMap((step, s) =>
    step.channelIds.flatMap((channelId, c) =>
      known.has(channelId)
        ? []
        : [
            {
              field: `steps.${s}.channelIds.${c}`,
              message: `no notification channel '${channelId}' in this project; create it under /channels first`,
            },
          ],
    ),
  );
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
}

/** A step names each channel once: the duplicates are dropped, keeping the order. */
const distinctChannels = (steps: readonly EscalationStepRecord[]): EscalationStepRecord[] =>
  steps.map((s) => ({ delayMinutes: s.delayMinutes, channelIds: [...new Set(s.channelIds)] }));

/**
 * For the monitor and alert rule verbs: the policy a definition attaches must be one of the
 * project's (400 naming `field` otherwise). Null (no policy) passes.
 */
export async function requireEscalationPolicy(
  meta: MetaAccess,
  projectId: string,
  policyId: string | null | undefined,
  field = "escalationPolicyId",
): Promise<void> {
  if (policyId === null || policyId === undefined) return;
  const policy = await meta.repos.escalationPolicies.findById(policyId);
  if (!policy || policy.projectId !== projectId)
    throw InvalidInputError.forField(
      field,
      `no escalation policy '${policyId}' in this project; create it under Settings → Escalation first`,
    );
}

/** A project's policies by name, each with what uses it (any member, viewers included). */
export async function listEscalationPolicies({
  ctx,
  projectId,
}: ProjectArgs): Promise<EscalationPolicyView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const { repos } = ctx.deps.meta;
  const [policies, users] = await Promise.all([
    repos.escalationPolicies.listByProject(projectId),
    usersByPolicy(repos, projectId),
  ]);
  return policies.map((p) => toView(p, users.get(p.id)));
}

export async function getEscalationPolicy({
  ctx,
  projectId,
  policyId,
}: PolicyArgs): Promise<EscalationPolicyView> {
  await requireProject({ ctx, projectId, access: "read" });
  const { repos } = ctx.deps.meta;
  const policy = await requirePolicy(repos, projectId, policyId);
  return toView(policy, (await usersByPolicy(repos, projectId)).get(policy.id));
}

/** Creates a policy (members and above); its name is unique in the project. */
export async function createEscalationPolicy({
  ctx,
  projectId,
  input,
}: ProjectArgs & { input: unknown }): Promise<EscalationPolicyView> {
  await requireProject({ ctx, projectId, access: "write" });
  const parsed = parseInput(CreateEscalationPolicyInput, input);
  const at = nowIso(ctx.deps);
  const record: EscalationPolicyRecord = {
    id: ctx.deps.newId("esc"),
    projectId,
    name: parsed.name,
    steps: distinctChannels(parsed.steps),
    repeat: parsed.repeat,
    createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    createdAt: at,
    updatedAt: at,
  };
  await ctx.deps.meta.transaction(async ({ repos }) => {
    await requireStepChannels(repos, projectId, record.steps);
    await requireFreeName(repos.escalationPolicies, projectId, "an escalation policy", record.name);
    await repos.escalationPolicies.insert(record);
  });
  return toView(record, undefined);
}

/**
 * Renames a policy or replaces its steps or repeat count (members and above). Escalations
 * already running keep the policy as it was when their incident opened.
 */
export async function updateEscalationPolicy({
  ctx,
  projectId,
  policyId,
  input,
}: PolicyArgs & { input: unknown }): Promise<EscalationPolicyView> {
  await requireProject({ ctx, projectId, access: "write" });
  const patch = parseInput(UpdateEscalationPolicyInput, input);
  return ctx.deps.meta.transaction(async ({ repos }) => {
    const existing = await requirePolicy(repos, projectId, policyId);
    const change = {
      name: patch.name ?? existing.name,
      steps: patch.steps ? distinctChannels(patch.steps) : existing.steps,
      repeat: patch.repeat ?? existing.repeat,
      updatedAt: nowIso(ctx.deps),
    };
    if (patch.steps) await requireStepChannels(repos, projectId, change.steps);
    await requireFreeName(
      repos.escalationPolicies,
      projectId,
      "an escalation policy",
      change.name,
      existing.id,
    );
    await repos.escalationPolicies.update(existing.id, change);
    return toView(
      { ...existing, ...change },
      (await usersByPolicy(repos, projectId)).get(existing.id),
    );
  });
}

/** Deletes a policy (members and above); refused (409) while monitors or alert rules use it, naming them. */
export async function deleteEscalationPolicy({
  ctx,
  projectId,
  policyId,
}: PolicyArgs): Promise<void> {
  await requireProject({ ctx, projectId, access: "write" });
  await ctx.deps.meta.transaction(async ({ repos }) => {
    const policy = await requirePolicy(repos, projectId, policyId);
    const used = (await usersByPolicy(repos, projectId)).get(policy.id);
    const named = (
      [
        ["monitor", used?.monitors ?? []],
        ["alert rule", used?.alertRules ?? []],
      ] as const
    )
      .filter(([, list]) => list.length > 0)
      .map(([noun, list]) => {
        const names = list.map((m) => `'${m.name}' (${m.id})`).join(", ");
        return `${noun}${list.length === 1 ? "" : "s"} ${names}`;
      });
    if (named.length > 0)
      throw new ConflictError(
        `Escalation policy '${policy.name}' is still used by ${named.join(" and ")}; detach it from them first`,
      );
    await repos.escalationPolicies.delete(policy.id);
  });
}
