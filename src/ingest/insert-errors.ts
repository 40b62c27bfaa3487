import { RefusedValueError } from "../telemetry/executor.js";

/**
 * ClickHouse error codes an insert gets for data the engine cannot store (a value it cannot
 * parse or that overflows its column type), by number: chDB cuts long messages, and the code's
 * name at the end can go with the cut. Anything else (the engine closed, out of memory, disk)
 * is not the data's fault.
 */
const DATA_ERROR_CODES: Readonly<Record<string, string>> = {
  "6": "CANNOT_PARSE_TEXT",
  "25": "CANNOT_PARSE_ESCAPE_SEQUENCE",
  "26": "CANNOT_PARSE_QUOTED_STRING",
  "27": "CANNOT_PARSE_INPUT_ASSERTION_FAILED",
  "32": "ATTEMPT_TO_READ_AFTER_EOF",
  "38": "CANNOT_PARSE_DATE",
  "41": "CANNOT_PARSE_DATETIME",
  "53": "TYPE_MISMATCH",
  "69": "ARGUMENT_OUT_OF_BOUND",
  "70": "CANNOT_CONVERT_TYPE",
  "72": "CANNOT_PARSE_NUMBER",
  "117": "INCORRECT_DATA",
  "128": "TOO_LARGE_ARRAY_SIZE",
  "130": "CANNOT_READ_ARRAY_FROM_TEXT",
  "131": "TOO_LARGE_STRING_SIZE",
  "321": "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE",
  "349": "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN",
  "407": "DECIMAL_OVERFLOW",
  "467": "CANNOT_PARSE_BOOL",
};

const CODE = /Code:\s*(\d+)\./;

/** The ClickHouse code name when an insert failed because of the rows it carried, else undefined. */
export function refusedDataCode(error: unknown): string | undefined {
  if (error instanceof RefusedValueError) return error.code;
  const message = error instanceof Error ? error.message : String(error);
  const number = CODE.exec(message)?.[1];
  return number === undefined ? undefined : DATA_ERROR_CODES[number];
}
