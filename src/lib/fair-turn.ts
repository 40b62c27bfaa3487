/** Work that takes turns: whose it is (a tenant, such as a project) and its tenant's group. */
export interface TurnTaker {
  tenant: string;
  group: string;
}

/** How many of each tenant's and each group's work runs now. */
export interface RunningCounts {
  tenants: ReadonlyMap<string, number>;
  groups: ReadonlyMap<string, number>;
}

/**
 * Whose turn it is among waiting work, oldest first: the index of the oldest allowed item of the
 * group with the fewest running, and within that group of the tenant with the fewest running;
 * -1 when none is allowed. A quiet group's work thus runs before a busy group's older work, and
 * within a group a quiet tenant's before a busy one's.
 */
export function nextInTurn<T extends TurnTaker>(
  waiting: readonly T[],
  running: RunningCounts,
  allowed: (item: T) => boolean,
): number {
  let best = -1;
  let fewestGroup = Number.POSITIVE_INFINITY;
  let fewest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < waiting.length && (fewestGroup > 0 || fewest > 0); i++) {
    const item = waiting[i] as T;
    const inGroup = running.groups.get(item.group) ?? 0;
    const ofTenant = running.tenants.get(item.tenant) ?? 0;
    if (inGroup > fewestGroup || (inGroup === fewestGroup && ofTenant >= fewest)) continue;
    if (!allowed(item)) continue;
    best = i;
    fewestGroup = inGroup;
    fewest = ofTenant;
  }
  return best;
}
