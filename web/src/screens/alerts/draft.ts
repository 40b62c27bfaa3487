import {
  type AlertInterval,
  type AlertSeverity,
  type ConditionOp,
  DEFAULT_MESSAGE_TEMPLATE,
  type NoDataMode,
} from "../../../../src/contracts/alert-catalog";
import type { AlertRuleView, CreateAlertRuleInput } from "../../../../src/contracts/alerts";
import type { BuilderQuery } from "../../../../src/contracts/query-builder";
import {
  BUILDER_PARAM,
  compileBuilder,
  initialBuilder,
  readBuilderParam,
} from "../../components/query-builder/builder-state";
import { capitalize } from "../../lib/format";
import { alertQueryFromParams } from "../dashboards/edit/alert-link";
import type { AlertPreset, ParamSchema } from "./api";

/** The editor's state; numbers and parameters stay text until sent (the server names bad ones). */
export interface RuleDraft {
  name: string;
  description: string;
  severity: AlertSeverity;
  /** A preset, TQL, or the query builder (whose alert TQL is the rule's query). */
  source: "preset" | "query" | "builder";
  presetKind: string;
  /** Parameter text by name; an empty one is left out, so its default applies. */
  presetParams: Record<string, string>;
  query: string;
  /** The builder's state (kept while another source is chosen, as the others are). */
  builder: BuilderQuery;
  op: ConditionOp;
  threshold: string;
  interval: AlertInterval;
  forSeconds: string;
  noData: NoDataMode;
  renotifyMinutes: string;
  openIncident: boolean;
  messageTemplate: string;
  channelIds: string[];
  /** The escalation policy run on the rule's incidents; null for none. */
  escalationPolicyId: string | null;
}

export const emptyRuleDraft = (): RuleDraft => ({
  name: "",
  description: "",
  severity: "medium",
  source: "preset",
  presetKind: "error_rate",
  presetParams: {},
  query: "",
  builder: initialBuilder(null),
  op: ">",
  threshold: "",
  interval: "1m",
  forSeconds: "0",
  noData: "ok",
  renotifyMinutes: "0",
  openIncident: false,
  messageTemplate: DEFAULT_MESSAGE_TEMPLATE,
  channelIds: [],
  escalationPolicyId: null,
});

/**
 * A new rule started from a link (`/alerts/new?query=…&name=…&description=…`, as a dashboard
 * panel's "Create alert" opens it): a TQL rule with that query, name and description. A panel
 * query's window and `{name:Type}` placeholders (values from `var-<name>`, as a dashboard's
 * link carries them) become what an alert can run on its own (alertQueryFrom). With the query
 * builder's state (`builder=<json>`, from the TQL screen's builder), the rule opens in the builder.
 */
export function draftFromParams(params: URLSearchParams): RuleDraft {
  const draft = emptyRuleDraft();
  const query = params.get("query")?.trim();
  const builder = readBuilderParam(params.get(BUILDER_PARAM));
  if (!query && !builder) return draft;
  return {
    ...draft,
    source: builder ? "builder" : "query",
    builder: builder ?? draft.builder,
    query: alertQueryFromParams(query ?? "", params),
    name: params.get("name")?.trim().slice(0, 200) ?? "",
    description: params.get("description")?.trim().slice(0, 1000) ?? "",
  };
}

export function fromRule(rule: AlertRuleView): RuleDraft {
  return {
    name: rule.name,
    description: rule.description,
    severity: rule.severity,
    source: rule.preset ? "preset" : "query",
    presetKind: rule.preset?.kind ?? "error_rate",
    presetParams: Object.fromEntries(
      Object.entries(rule.preset?.params ?? {}).map(([k, v]) => [k, String(v)]),
    ),
    // A preset's compiled TQL: a start for whoever switches the rule to a query.
    query: rule.query,
    builder: initialBuilder(null),
    op: rule.condition.op,
    threshold: String(rule.condition.threshold),
    interval: rule.interval,
    forSeconds: String(rule.forSeconds),
    noData: rule.noData,
    renotifyMinutes: String(rule.renotifyMinutes),
    openIncident: rule.openIncident,
    messageTemplate: rule.messageTemplate,
    channelIds: rule.channelIds,
    escalationPolicyId: rule.escalationPolicyId,
  };
}

/** The builder's alert TQL; "" while it is incomplete (the builder names what is missing). */
export function builderQuery(builder: BuilderQuery): string {
  const compiled = compileBuilder(builder, "alert");
  return compiled.ok ? compiled.tql : "";
}

const toNumber = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text));

/** Whether a parameter takes a number (JSON Schema `type: number`). */
export const isNumberParam = (schema: ParamSchema | undefined): boolean =>
  schema?.type === "number" || schema?.type === "integer";

/** The preset's parameters as the API takes them: numbers as numbers, empty ones left out. */
export function presetParams(
  draft: RuleDraft,
  preset: AlertPreset | undefined,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(draft.presetParams)) {
    const schema = preset?.params.properties[name];
    if (preset && !schema) continue; // a parameter of the preset chosen before
    if (text.trim() === "") continue;
    params[name] = isNumberParam(schema) ? toNumber(text) : text;
  }
  return params;
}

export function toRuleInput(
  draft: RuleDraft,
  presets: readonly AlertPreset[],
): CreateAlertRuleInput {
  const preset = presets.find((p) => p.kind === draft.presetKind);
  return {
    name: draft.name,
    description: draft.description,
    severity: draft.severity,
    ...(draft.source === "preset"
      ? { preset: { kind: draft.presetKind, params: presetParams(draft, preset) } }
      : { query: draft.source === "builder" ? builderQuery(draft.builder) : draft.query }),
    condition: { op: draft.op, threshold: toNumber(draft.threshold) },
    interval: draft.interval,
    forSeconds: toNumber(draft.forSeconds),
    noData: draft.noData,
    renotifyMinutes: toNumber(draft.renotifyMinutes),
    openIncident: draft.openIncident,
    messageTemplate: draft.messageTemplate,
    channelIds: draft.channelIds,
    escalationPolicyId: draft.escalationPolicyId,
  };
}

/** "groupBy" → "Group by", "errorId" → "Error id". */
export const paramLabel = (name: string): string =>
  capitalize(name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase());

/** `{service: "api"}` → `service=api`; the one series of a query without labels → `value`. */
export const seriesLabel = (labels: Record<string, string>): string => {
  const entries = Object.entries(labels);
  return entries.length === 0 ? "value" : entries.map(([k, v]) => `${k}=${v}`).join(", ");
};
