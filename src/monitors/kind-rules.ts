import { canChangeType, MONITOR_TYPE_LABELS } from "../contracts/monitor-catalog.js";
import { monitorFieldNames, type UpdateMonitorInput } from "../contracts/monitors.js";
import { type FieldIssue, InvalidInputError } from "../lib/domain-errors.js";
import type { MonitorDefinition } from "./definition.js";
import { kindOf } from "./kinds/registry.js";

// What the create and update verbs check of a definition beyond its schema, per kind.

/**
 * With the SSRF guard on, refuses targets that are certainly private (an IP literal or a local
 * name), per kind. Other names, and hosts filled from earlier steps, are checked at each connection.
 */
export function requirePublicTargets(
  allowPrivateTargets: boolean,
  definition: MonitorDefinition,
): void {
  if (allowPrivateTargets) return;
  const issues = kindOf(definition).privateTargets(
    definition,
    "VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS",
  );
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
}

/**
 * A patch names only fields of the monitor's kind, and keeps its type (api and flow may trade
 * places): anything else is refused naming the field.
 */
export function requirePatchFits(existing: MonitorDefinition, patch: UpdateMonitorInput): void {
  const type = patch.type ?? existing.type;
  if (!canChangeType(existing.type, type as MonitorDefinition["type"]))
    throw InvalidInputError.forField(
      "type",
      `a ${existing.type} monitor cannot become ${type}; create a new monitor instead`,
    );
  const known = monitorFieldNames(type as MonitorDefinition["type"]);
  const issues: FieldIssue[] = Object.keys(patch)
    .filter((key) => !known.has(key))
    .map((field) => ({
      field,
      message: `is not a field of a ${MONITOR_TYPE_LABELS[existing.type]} monitor (type ${existing.type})`,
    }));
  if (issues.length > 0) throw InvalidInputError.forIssues(issues);
}
