/** The categories of the function allow-list, in documentation order (docs/tql-functions.md). */
export type FunctionCategory =
  | "aggregate"
  | "date"
  | "string"
  | "regex"
  | "array"
  | "map"
  | "json"
  | "math"
  | "conditional"
  | "conversion"
  | "tuple"
  | "hash"
  | "url"
  | "ip"
  | "other";

/** One function a TQL query may call: the entries of each category file and the allow-list. */
export interface FunctionDef {
  /** The ClickHouse name, printed exactly like this. */
  readonly name: string;
  readonly category: FunctionCategory;
  readonly aggregate: boolean;
  readonly minArgs: number;
  /** Number.POSITIVE_INFINITY when variadic. */
  readonly maxArgs: number;
  /**
   * Parametric aggregates such as quantile(0.95)(x): bounds of the parameter list. Absent = not
   * parametric (a parameter list is then an error). min 0 where parameters are optional.
   */
  readonly params?: { readonly min: number; readonly max: number };
  /** Higher-order functions whose first argument may be a lambda (arrayMap, arrayFilter, ...). */
  readonly lambda?: boolean;
  /** ClickHouse accepts the name in any letter case (system.functions.case_insensitive). */
  readonly caseInsensitive?: boolean;
  /** One short line for the generated docs. */
  readonly description: string;
}
