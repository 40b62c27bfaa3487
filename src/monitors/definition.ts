import type { z } from "zod";
import type { Frequency, MonitorType } from "../contracts/monitor-catalog.js";
import {
  type Assertion,
  type CreateMonitorInput,
  DEFAULT_ASSERTIONS,
  type Step,
} from "../contracts/monitors.js";

// The input schemas (CreateMonitorInput, UpdateMonitorInput, Assertion, Step) are the API's
// contract in contracts/monitors.ts; this is the definition they validate into.

export type StepDefinition = Omit<z.output<typeof Step>, "assertions" | "name"> & {
  name: string;
  assertions: Assertion[];
};

/** A validated monitor definition as stored and run: defaults applied, every step named. */
export interface MonitorDefinition {
  name: string;
  type: MonitorType;
  frequency: Frequency;
  timeoutSeconds: number;
  locations: ["default"];
  alertAfter: number;
  channelIds: string[];
  steps: StepDefinition[];
}

/** Validates input (create, or an existing definition merged with a patch) into a definition. */
export function toDefinition(parsed: z.output<typeof CreateMonitorInput>): MonitorDefinition {
  return {
    ...parsed,
    type: parsed.type as MonitorType,
    locations: ["default"],
    channelIds: [...new Set(parsed.channelIds)],
    steps: parsed.steps.map((step, i) => ({
      ...step,
      name: step.name || `Step ${i + 1}`,
      assertions: step.assertions?.length ? step.assertions : [...DEFAULT_ASSERTIONS],
    })),
  };
}
