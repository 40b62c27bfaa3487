import type { AttributeField, AttributeValue } from "../../../src/contracts/attributes.js";
import { type ExploreSource, SOURCE_COLUMNS } from "../../../src/contracts/explore-filters.js";

/** One suggestion of a combobox: the text it puts in the input and what is shown beside it. */
export interface SuggestOption {
  value: string;
  /** Shown after the value, muted: a count, "column". */
  detail: string;
  /** Marked as a number (numeric comparisons and aggregations apply). */
  numeric: boolean;
}

const counted = (count: number): string =>
  count >= 1_000_000
    ? `${(count / 1_000_000).toFixed(1)}M`
    : count >= 10_000
      ? `${Math.round(count / 1000)}k`
      : String(count);

/**
 * The fields to suggest: the catalog's (most frequent first), then the source's other columns
 * containing the typed text (duration_ms, trace_id…: filterable, but not counted by the catalog).
 */
export function fieldOptions(
  source: ExploreSource,
  fields: readonly Pick<AttributeField, "field" | "count" | "numeric">[],
  typed: string,
): SuggestOption[] {
  const seen = new Set(fields.map((f) => f.field));
  const needle = typed.trim().toLowerCase();
  const columns = Object.entries(SOURCE_COLUMNS[source])
    .filter(([name]) => !seen.has(name) && name.toLowerCase().includes(needle))
    .map(([name, kind]) => ({ value: name, detail: "column", numeric: kind === "number" }));
  return [
    ...fields.map((f) => ({ value: f.field, detail: counted(f.count), numeric: f.numeric })),
    ...columns,
  ];
}

/** The values to suggest, most frequent first, as the server ordered them. */
export const valueOptions = (values: readonly AttributeValue[]): SuggestOption[] =>
  values.map((v) => ({ value: v.value, detail: counted(v.count), numeric: v.numeric }));

export type NavigationKey = "ArrowDown" | "ArrowUp" | "Home" | "End";

/** The option active after a key, among `count` (-1: none); the arrows wrap around. */
export function moveActive(active: number, count: number, key: NavigationKey): number {
  if (count === 0) return -1;
  switch (key) {
    case "Home":
      return 0;
    case "End":
      return count - 1;
    case "ArrowDown":
      return active < 0 || active >= count - 1 ? 0 : active + 1;
    case "ArrowUp":
      return active <= 0 ? count - 1 : active - 1;
  }
}
