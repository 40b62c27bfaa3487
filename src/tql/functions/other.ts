import { CI, definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("other");

export const OTHER_FUNCTIONS: readonly FunctionDef[] = [
  fn("toTypeName", 1, "ClickHouse type name of the argument"),
  fn("identity", 1, "The argument unchanged"),
  fn("transform", [3, 4], "Maps values through two arrays: (x, [from], [to][, default])"),
  fn("bar", [3, 4], "Unicode bar of x scaled between min and max: (x, min, max[, width])"),
  fn("formatReadableSize", [1, 2], "Bytes as text with binary units, e.g. '1.00 KiB'"),
  fn("formatReadableDecimalSize", [1, 2], "Bytes as text with decimal units, e.g. '1.02 KB'"),
  fn("formatReadableQuantity", [1, 2], "A number as text with words, e.g. '1.02 thousand'"),
  fn("formatReadableTimeDelta", [1, 3], "Seconds as text, e.g. '1 minute and 40 seconds'"),
  fn("parseReadableSize", 1, "Size text such as '1 KiB' or '3 MB' to bytes; error on failure"),
  fn("parseReadableSizeOrNull", 1, "parseReadableSize, NULL when it does not parse"),
  fn("generateUUIDv4", [0, 1], "A random UUID (version 4)"),
  fn("generateUUIDv7", [0, 1], "A time-ordered UUID (version 7)"),
  fn("UUIDStringToNum", [1, 2], "UUID text to its 16 bytes"),
  fn("UUIDNumToString", [1, 2], "16 bytes to UUID text"),
  fn("UUIDv7ToDateTime", [1, 2], "Timestamp embedded in a version 7 UUID"),
  fn("rand", [0, 1], "Random UInt32", CI),
  fn("rand64", [0, 1], "Random UInt64"),
  fn("randCanonical", [0, 1], "Random Float64 in [0, 1)"),
  fn("randConstant", [0, 1], "One random UInt32 for the whole query"),
  fn("randUniform", [2, 3], "Random Float64 uniform in [min, max)"),
  fn("randNormal", [2, 3], "Random Float64 from a normal distribution: (mean, stddev)"),
];
