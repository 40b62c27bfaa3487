import { DomainError } from "../lib/domain-errors.js";
import { TqlError } from "./tql-errors.js";

/** What an engine error means for the caller. */
type Kind = "query" | "timeout" | "limit";

/**
 * ClickHouse error codes a query can cause by itself. Everything else the engine reports is
 * treated as an internal failure (500, logged) rather than blamed on the query.
 */
const KIND_BY_CODE: Readonly<Record<string, Kind>> = {
  TIMEOUT_EXCEEDED: "timeout",
  MEMORY_LIMIT_EXCEEDED: "limit",
  TOO_MANY_ROWS: "limit",
  TOO_MANY_BYTES: "limit",
  TOO_MANY_ROWS_OR_BYTES: "limit",
  TOO_MANY_RESULT_ROWS: "limit",
  SET_SIZE_LIMIT_EXCEEDED: "limit",
  TOO_BIG_AST: "limit",
  TOO_DEEP_AST: "limit",
  TOO_DEEP_RECURSION: "limit",
  TOO_DEEP_SUBQUERIES: "limit",
  TOO_MANY_TEMPORARY_COLUMNS: "limit",
  ...Object.fromEntries(
    [
      "AMBIGUOUS_COLUMN_NAME",
      "AMBIGUOUS_IDENTIFIER",
      "ARGUMENT_OUT_OF_BOUND",
      "BAD_ARGUMENTS",
      "BAD_TYPE_OF_FIELD",
      "CANNOT_COMPILE_REGEXP",
      "CANNOT_CONVERT_TYPE",
      "CANNOT_PARSE_DATE",
      "CANNOT_PARSE_DATETIME",
      "CANNOT_PARSE_NUMBER",
      "CANNOT_PARSE_TEXT",
      "CANNOT_PARSE_INPUT_ASSERTION_FAILED",
      "CANNOT_PARSE_UUID",
      "CANNOT_PARSE_IPV4",
      "CANNOT_PARSE_IPV6",
      "CANNOT_PARSE_ESCAPE_SEQUENCE",
      "CANNOT_PARSE_QUOTED_STRING",
      "CANNOT_READ_ARRAY_FROM_TEXT",
      "CYCLIC_ALIASES",
      "DECIMAL_OVERFLOW",
      "EMPTY_LIST_OF_COLUMNS_QUERIED",
      "FUNCTION_CANNOT_HAVE_PARAMETERS",
      "ILLEGAL_AGGREGATION",
      "ILLEGAL_COLUMN",
      "ILLEGAL_DIVISION",
      "ILLEGAL_PREWHERE",
      "ILLEGAL_TYPE_OF_ARGUMENT",
      "ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER",
      "INCORRECT_ELEMENT_OF_SET",
      "INCORRECT_QUERY",
      "INVALID_JOIN_ON_EXPRESSION",
      "INVALID_LIMIT_EXPRESSION",
      "INVALID_WITH_FILL_EXPRESSION",
      "LIMIT_BY_WITH_TIES_IS_NOT_SUPPORTED",
      "MULTIPLE_EXPRESSIONS_FOR_ALIAS",
      "NO_COMMON_TYPE",
      "NOT_AN_AGGREGATE",
      "NOT_FOUND_COLUMN_IN_BLOCK",
      "NOT_IMPLEMENTED",
      "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
      "NUMBER_OF_COLUMNS_DOESNT_MATCH",
      "PARAMETER_OUT_OF_BOUND",
      "SIZES_OF_ARRAYS_DONT_MATCH",
      "SIZES_OF_COLUMNS_IN_TUPLE_DONT_MATCH",
      "SYNTAX_ERROR",
      "TOO_FEW_ARGUMENTS_FOR_FUNCTION",
      "TOO_MANY_ARGUMENTS_FOR_FUNCTION",
      "TYPE_MISMATCH",
      "UNEXPECTED_EXPRESSION",
      "UNKNOWN_AGGREGATE_FUNCTION",
      "UNKNOWN_FUNCTION",
      "UNKNOWN_IDENTIFIER",
      "UNKNOWN_TYPE",
      "UNSUPPORTED_METHOD",
      "UNSUPPORTED_JOIN_KEYS",
      "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE",
      "ZERO_ARRAY_OR_TUPLE_INDEX",
      "CORRELATED_SUBQUERIES_ARE_NOT_SUPPORTED",
      "INVALID_JOIN_KEYS",
      "FUNCTION_THROW_IF_VALUE_IS_NON_ZERO",
      "INCORRECT_RESULT_OF_SCALAR_SUBQUERY",
      "ATTEMPT_TO_READ_AFTER_EOF",
      "UNEXPECTED_AST_STRUCTURE",
      "SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY",
      "CANNOT_PRINT_FLOAT_OR_DOUBLE_NUMBER",
      "BAD_GET",
      "UNSUPPORTED_PARAMETER",
      "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING",
      "CANNOT_PARSE_BOOL",
      "TOO_LARGE_ARRAY_SIZE",
      "ILLEGAL_INDEX",
      "INVALID_JSON_STRUCTURE",
      "TOO_LARGE_STRING_SIZE",
    ].map((code) => [code, "query" as const]),
  ),
};

/** `Code: 43. DB::Exception: <message>. (ILLEGAL_TYPE_OF_ARGUMENT)` */
const ENGINE_MESSAGE =
  /Code:\s*(\d+)\.\s*DB::Exception:\s*([\s\S]*?)\s*(?:\(([A-Z0-9_]+)\)\s*(?:\(version[^)]*\))?\s*)?$/;

/**
 * Names of the codes a query most often causes, by number: chDB cuts a message at its first
 * NUL byte (a value quoted in the message may hold one), and the name at the end goes with it.
 */
const NAME_BY_NUMBER: Readonly<Record<string, string>> = {
  "6": "CANNOT_PARSE_TEXT",
  "27": "CANNOT_PARSE_INPUT_ASSERTION_FAILED",
  "32": "ATTEMPT_TO_READ_AFTER_EOF",
  "36": "BAD_ARGUMENTS",
  "38": "CANNOT_PARSE_DATE",
  "41": "CANNOT_PARSE_DATETIME",
  "42": "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
  "43": "ILLEGAL_TYPE_OF_ARGUMENT",
  "44": "ILLEGAL_COLUMN",
  "47": "UNKNOWN_IDENTIFIER",
  "53": "TYPE_MISMATCH",
  "69": "ARGUMENT_OUT_OF_BOUND",
  "70": "CANNOT_CONVERT_TYPE",
  "72": "CANNOT_PARSE_NUMBER",
  "130": "CANNOT_READ_ARRAY_FROM_TEXT",
  "131": "TOO_LARGE_STRING_SIZE",
  "158": "TOO_MANY_ROWS",
  "159": "TIMEOUT_EXCEEDED",
  "241": "MEMORY_LIMIT_EXCEEDED",
};

/** Where the engine starts quoting the (rewritten) query or its internals; cut from there. */
const INTERNALS = [
  /[:.]?\s*In scope\b[\s\S]*$/i,
  /[:.]?\s*While processing\b[\s\S]*$/i,
  /[:.]?\s*While executing\b[\s\S]*$/i,
  /[:.]?\s*in query\b[\s\S]*$/i,
  /\s*Stack trace[\s\S]*$/i,
  // Any other quotation of the statement.
  /[:.,]?\s*'?\b(?:SELECT|SETTINGS|WITH)\b[\s\S]*$/,
];

export interface EngineErrorContext {
  projectId: string;
  database: string;
  maxExecutionSeconds: number;
}

/**
 * Turns an engine error on a TQL query into what the caller sees: a 400 with the engine's
 * message cleaned of internals (the rewritten SQL, the guard, the project id, the database),
 * a 422 for the time and size limits, or undefined when it is not the query's fault.
 */
export function classifyEngineError(
  error: unknown,
  context: EngineErrorContext,
): DomainError | undefined {
  if (error instanceof DomainError) return error;
  const text = error instanceof Error ? error.message : String(error);
  const match = ENGINE_MESSAGE.exec(text);
  if (!match) return undefined;
  const [, number = "", rawMessage = "", named] = match;
  const code = named ?? NAME_BY_NUMBER[number] ?? "";
  const kind = KIND_BY_CODE[code];
  if (kind === "timeout")
    return new DomainError(
      "query_timeout",
      `The query ran longer than the ${context.maxExecutionSeconds} s limit. Narrow the time range, add filters on timestamp or service_name, or aggregate less.`,
    );
  if (kind === "limit")
    return new DomainError(
      "query_limit_exceeded",
      `The query needs more than the engine allows per query (${limitName(code)}). Narrow the time range, add filters, or aggregate before joining.`,
    );
  // The engine parses only SQL we printed; its syntax errors quote that SQL, never the user's.
  if (code === "SYNTAX_ERROR")
    return new TqlError(
      "The engine could not read the query; simplify the expression it fails on (SYNTAX_ERROR)",
    );
  if (kind === "query") return new TqlError(`${cleanMessage(rawMessage, context)} (${code})`);
  return undefined;
}

function limitName(code: string): string {
  if (code === "MEMORY_LIMIT_EXCEEDED") return "memory";
  if (code.startsWith("TOO_MANY_ROWS") || code === "TOO_MANY_BYTES") return "rows read";
  if (code === "TOO_MANY_RESULT_ROWS") return "result rows";
  return "query size";
}

export function cleanMessage(message: string, context: EngineErrorContext): string {
  let cleaned = message;
  for (const pattern of INTERNALS) cleaned = cleaned.replace(pattern, "");
  cleaned = cleaned
    .replaceAll(context.projectId, "…")
    .replaceAll(`\`${context.database}\`.`, "")
    .replaceAll(`${context.database}.`, "")
    .replace(/_subquery\d+/g, "subquery")
    .replace(/__table\d+/g, "table")
    // A placeholder as the query wrote it, not under the printer's name for it (p_name).
    .replace(/\{p_([A-Za-z_][A-Za-z0-9_]*):/g, "{$1:")
    .replace(/\bquery parameter 'p_([A-Za-z_][A-Za-z0-9_]*)'/g, "parameter '$1'")
    .trim();
  return cleaned.length > 0 ? cleaned : "The engine rejected the query";
}
