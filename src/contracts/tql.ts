import { z } from "zod";
import {
  TQL_MAX_PARAMETER_ARRAY_ITEMS,
  TQL_MAX_PARAMETER_STRING_LENGTH,
  TQL_MAX_PARAMETERS,
  TQL_MAX_QUERY_LENGTH,
  TQL_MAX_RESULT_ROWS,
  TQL_PARAMETER_NAME,
  TQL_WINDOW_PARAMETERS,
} from "./tql-dialect.js";

// The TQL API's request and response schemas (zod: validation and OpenAPI alike), shared by the
// server and the dashboard (docs/tql.md): a query and its result, the catalog of what a query may
// name (GET /v1/tql/schema) and saved queries. The words and limits they use are in tql-dialect.ts.

/** A value for a `{name:Type}` placeholder: text, a number, a boolean, or a list (multi-select). */
export const ParameterValue = z.union([
  z.string().max(TQL_MAX_PARAMETER_STRING_LENGTH),
  z.number().finite(),
  z.boolean(),
  z
    .array(z.union([z.string().max(TQL_MAX_PARAMETER_STRING_LENGTH), z.number().finite()]))
    .max(TQL_MAX_PARAMETER_ARRAY_ITEMS),
]);
export type ParameterValue = z.infer<typeof ParameterValue>;

/** The values of a query's placeholders, by name; values no placeholder uses are ignored. */
export const TqlParameters = z
  .record(
    z.string().regex(TQL_PARAMETER_NAME, "must be a letter or _ then letters, digits or _"),
    ParameterValue,
  )
  .refine(
    (values) =>
      Object.keys(values).filter((name) => !Object.hasOwn(TQL_WINDOW_PARAMETERS, name)).length <=
      TQL_MAX_PARAMETERS,
    `at most ${TQL_MAX_PARAMETERS} parameters besides the window's from, to and bucket_seconds`,
  )
  .describe(
    "Values of the query's {name:Type} placeholders, checked against each type and bound by the engine (never written into the SQL); {from:DateTime64(3)}, {to:DateTime64(3)} and {bucket_seconds:UInt32} are the time window's",
  );
export type TqlParameters = z.infer<typeof TqlParameters>;

export const TqlRequest = z
  .object({
    query: z
      .string()
      .min(1)
      .max(TQL_MAX_QUERY_LENGTH)
      .describe("One TQL SELECT statement (ClickHouse SQL over the six TQL tables)"),
    parameters: TqlParameters.optional(),
  })
  .strict()
  .meta({
    id: "TqlRequest",
    example: {
      query:
        "SELECT service_name, count() AS requests, countIf(status = 'error') AS errors, round(quantile(0.95)(duration_ms), 1) AS p95_ms FROM traces WHERE timestamp > now() - INTERVAL 1 HOUR GROUP BY service_name ORDER BY requests DESC LIMIT 10",
    },
  });
export type TqlRequest = z.infer<typeof TqlRequest>;

/** One result column: its name and the engine's type name. */
export const TqlColumn = z.object({
  name: z.string(),
  type: z.string().describe("ClickHouse type name"),
});
export type TqlColumn = z.infer<typeof TqlColumn>;

/** The TQL result object of the specification. */
export const TqlResult = z
  .object({
    columns: z.array(TqlColumn).describe("Result columns in order"),
    rows: z
      .array(z.array(z.unknown()))
      .describe(
        "Rows, each holding values in column order. 64-bit integers are JSON numbers within ±(2^53−1) and decimal strings beyond",
      ),
    rowCount: z.number().int().describe("Number of rows returned"),
    durationMs: z.number().int().describe("Execution time in milliseconds"),
    truncated: z
      .boolean()
      .describe(
        `True when the result was cut at ${TQL_MAX_RESULT_ROWS.toLocaleString("en-US")} rows`,
      ),
  })
  .meta({
    id: "TqlResult",
    example: {
      columns: [
        { name: "service_name", type: "LowCardinality(String)" },
        { name: "requests", type: "UInt64" },
        { name: "errors", type: "UInt64" },
        { name: "p95_ms", type: "Float64" },
      ],
      rows: [
        ["checkout", 1840, 12, 231.4],
        ["gateway", 1533, 3, 88.2],
      ],
      rowCount: 2,
      durationMs: 14,
      truncated: false,
    },
  });
export type TqlResult = z.infer<typeof TqlResult>;

/** Where in the query a refused query's error is: 1-based, as editors count (the problem's `position`). */
export const TqlPosition = z.object({ line: z.number().int(), column: z.number().int() });
export type TqlPosition = z.infer<typeof TqlPosition>;

/** One column a TQL query can read. */
export const CatalogColumn = z.object({
  name: z.string(),
  type: z.string().describe("ClickHouse type name"),
  description: z.string(),
});
export type CatalogColumn = z.infer<typeof CatalogColumn>;

export const CatalogTable = z.object({
  name: z.string(),
  description: z.string(),
  columns: z
    .array(CatalogColumn)
    .describe("In table order; the internal project column is not listed"),
});
export type CatalogTable = z.infer<typeof CatalogTable>;

export const CatalogFunction = z.object({
  name: z.string().describe("The name to call, exactly as written (see caseInsensitive)"),
  category: z.string().describe("aggregate, date, string, regex, array, map, json, math, …"),
  aggregate: z.boolean(),
  arguments: z
    .string()
    .describe("Arguments a call takes: `2`, `1–3`, `1+`; parametric aggregates `(0–1)(1)`"),
  minArgs: z.number().int(),
  maxArgs: z.number().int().nullable().describe("null when variadic"),
  params: z
    .object({ min: z.number().int(), max: z.number().int().nullable() })
    .nullable()
    .describe("Parametric aggregates such as quantile(0.95)(x): bounds of the parameter list"),
  lambda: z.boolean().describe("The first argument may be a lambda (arrayMap(x -> …, arr))"),
  caseInsensitive: z.boolean(),
  description: z.string(),
});
export type CatalogFunction = z.infer<typeof CatalogFunction>;

export const CatalogCombinator = z.object({
  suffix: z.string().describe("Appended to an aggregate's name: countIf, sumArray"),
  extraArgs: z.number().int(),
  example: z.string(),
  description: z.string(),
});
export type CatalogCombinator = z.infer<typeof CatalogCombinator>;

/** Everything a TQL query may name: the editor's completions and highlighting come from it. */
export const TqlCatalog = z
  .object({
    tables: z.array(CatalogTable),
    functions: z.array(CatalogFunction).describe("Every function a query may call, in docs order"),
    combinators: z.array(CatalogCombinator),
    keywords: z.array(z.string()).describe("Reserved words (upper case)"),
  })
  .meta({ id: "TqlSchema" });
export type TqlCatalog = z.infer<typeof TqlCatalog>;

const Name = z.string().trim().min(1).max(100);
const Query = z
  .string()
  .max(TQL_MAX_QUERY_LENGTH)
  .refine((text) => text.trim().length > 0, "must not be empty")
  .describe("The TQL text, kept as written");
const Description = z.string().trim().max(1000);

export const CreateSavedQueryInput = z
  .object({ name: Name, query: Query, description: Description.default("") })
  .strict()
  .meta({ id: "CreateSavedQueryInput" });
export type CreateSavedQueryInput = z.input<typeof CreateSavedQueryInput>;

export const UpdateSavedQueryInput = z
  .object({ name: Name.optional(), query: Query.optional(), description: Description.optional() })
  .strict()
  .meta({ id: "UpdateSavedQueryInput" });
export type UpdateSavedQueryInput = z.input<typeof UpdateSavedQueryInput>;

export const SavedQueryView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    description: z.string(),
    query: z.string(),
    createdBy: z.string().nullable().describe("The user who saved it; null once removed"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "SavedQuery" });
export type SavedQueryView = z.infer<typeof SavedQueryView>;
