import type { BuilderQuery } from "../../../../src/contracts/query-builder.js";
import { builderToTql } from "../../../../src/contracts/query-builder-tql.js";
import {
  aggregationLabel,
  BUILDER_PARAM,
  builderParam,
} from "../../components/query-builder/builder-state.js";
import { projectPath } from "../../lib/project-path.js";
import { ALERT_PREFILL } from "../dashboards/edit/alert-link.js";
import { PARAM_PREFIX } from "./placeholders.js";

/*
 * "Create alert" from the TQL screen: the alert rule form (`/alerts/new?…`) opened with the
 * query. From the builder, its alert TQL (one `value` per series over its look-back window)
 * and its state (`builder=`, so the form opens in its builder); from the editor, the text with
 * the values typed for its placeholders (`var-<name>`), which the form makes runnable on its
 * own as it does a dashboard panel's. No React, so it is tested as it is.
 */

/** A rule's name for a builder query: `p95(duration_ms) of traces by service_name`. */
export function builderTitle(query: BuilderQuery): string {
  const what = query.aggregations.slice(0, 1).map(aggregationLabel).join("");
  const by = query.groupBy.filter((f) => f !== "");
  return `${what} of ${query.source}${by.length > 0 ? ` by ${by.join(", ")}` : ""}`;
}

export function alertFromBuilderHref(projectId: string, query: BuilderQuery): string {
  const params = new URLSearchParams({
    [ALERT_PREFILL.query]: builderToTql(query, { target: "alert" }),
    [ALERT_PREFILL.name]: builderTitle(query).slice(0, 200),
    [BUILDER_PARAM]: builderParam(query),
  });
  return `${projectPath(projectId, "alerts", "new")}?${params.toString()}`;
}

export function alertFromTqlHref(
  projectId: string,
  query: string,
  name: string,
  typed: Readonly<Record<string, readonly string[]>>,
): string {
  const params = new URLSearchParams({
    [ALERT_PREFILL.query]: query,
    [ALERT_PREFILL.name]: (name.trim() || "TQL query").slice(0, 200),
  });
  for (const [key, values] of Object.entries(typed))
    for (const value of values) params.append(`${PARAM_PREFIX}${key}`, value);
  return `${projectPath(projectId, "alerts", "new")}?${params.toString()}`;
}
