import type { Admittance, OrganizationOf } from "./admission-options.js";
import type { EngineAdmission } from "./engine-admission.js";
import type { TelemetryExecutor } from "./executor.js";

/** Admits `work` for `tenant`, in its organization when `organizationOf` names one. */
export function admitFor<T>(
  admission: EngineAdmission,
  organizationOf: OrganizationOf | undefined,
  work: () => Promise<T>,
  who: Omit<Admittance, "group">,
): Promise<T> {
  const { tenant } = who;
  const group = tenant === undefined ? undefined : organizationOf?.(tenant);
  return group instanceof Promise
    ? group.then((known) => admission.admit(work, { ...who, group: known }))
    : admission.admit(work, { ...who, group });
}

/**
 * The engine as the read API sees it: its reads (query, queryCompact) go through `admission`,
 * each for the tenant its options name, in that tenant's organization when `organizationOf` is
 * given.
 */
export function admitReads(
  executor: TelemetryExecutor,
  admission: EngineAdmission,
  organizationOf?: OrganizationOf,
): TelemetryExecutor {
  // The rest is the engine's own (see instrumentExecutor).
  return {
    ...executor,
    query: (sql, queryOptions) =>
      admitFor(admission, organizationOf, () => executor.query(sql, queryOptions), {
        tenant: queryOptions?.tenant,
      }),
    queryCompact: (sql, queryOptions) =>
      admitFor(admission, organizationOf, () => executor.queryCompact(sql, queryOptions), {
        tenant: queryOptions?.tenant,
      }),
  };
}
