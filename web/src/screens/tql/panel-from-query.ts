import type { DashboardVariable, PanelType } from "../../../../src/contracts/dashboards.js";
import type { TqlResult } from "../../../../src/contracts/tql.js";
import { isTimeType } from "../../lib/column-types.js";
import { inputKind, type Placeholder } from "./placeholders.js";

/*
 * A TQL screen query as a dashboard panel ("Add to dashboard"): the type its result suits and
 * the variables its placeholders need. No React, so it is tested as it is.
 */

/** A time series when the result has a time column, else a table. */
export const panelTypeFor = (result: Pick<TqlResult, "columns">): PanelType =>
  result.columns.some((c) => isTimeType(c.type)) ? "timeseries" : "table";

/**
 * Variables for the query's placeholders a dashboard lacks, starting at the values typed here:
 * a text box for one value, a multi-select of the typed values for a list (a list typed empty
 * gets none: the panel editor then names it).
 */
export function missingVariables(
  placeholders: readonly Placeholder[],
  have: readonly DashboardVariable[],
  typed: Readonly<Record<string, readonly string[]>>,
): DashboardVariable[] {
  const added: DashboardVariable[] = [];
  for (const p of placeholders) {
    if (have.some((v) => v.name === p.name)) continue;
    const texts = typed[p.name] ?? [];
    if (inputKind(p.type) === "list") {
      const values = [...new Set(texts.flatMap((t) => t.split(",")).map((t) => t.trim()))].filter(
        (t) => t !== "",
      );
      if (values.length > 0)
        added.push({
          type: "custom",
          name: p.name,
          values,
          multi: true,
          includeAll: true,
          default: values,
        });
      continue;
    }
    const value = texts[0] ?? "";
    added.push({
      type: "text",
      name: p.name,
      multi: false,
      includeAll: false,
      ...(value ? { default: value } : {}),
    });
  }
  return added;
}
