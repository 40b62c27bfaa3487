import { atLeast, definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("json");

/** JSONExtractX(json[, key_or_index, ...]): the path is any number of keys or 1-based indexes. */
const PATH = "; keys or indexes follow the JSON";

export const JSON_FUNCTIONS: readonly FunctionDef[] = [
  fn("JSONExtract", atLeast(2), "Value parsed as a ClickHouse type: (json[, path...], 'Type')"),
  fn("JSONExtractString", atLeast(1), `String value${PATH}`),
  fn("JSONExtractInt", atLeast(1), `Signed integer value${PATH}`),
  fn("JSONExtractUInt", atLeast(1), `Unsigned integer value${PATH}`),
  fn("JSONExtractFloat", atLeast(1), `Float value${PATH}`),
  fn("JSONExtractBool", atLeast(1), `Boolean value${PATH}`),
  fn("JSONExtractRaw", atLeast(1), `Unparsed JSON text of a value${PATH}`),
  fn("JSONExtractArrayRaw", atLeast(1), `Array of the unparsed elements of a JSON array${PATH}`),
  fn("JSONExtractKeys", atLeast(1), `Keys of a JSON object${PATH}`),
  fn("JSONExtractKeysAndValues", atLeast(2), "(key, value) pairs of an object, values of a type"),
  fn("JSONExtractKeysAndValuesRaw", atLeast(1), "(key, unparsed value) pairs of an object"),
  fn("JSONHas", atLeast(1), `Whether the value exists${PATH}`),
  fn("JSONLength", atLeast(1), `Length of a JSON array or object${PATH}`),
  fn("JSONArrayLength", 1, "Number of elements of a JSON array, NULL if not an array"),
  fn("JSONType", atLeast(1), `Type of a value: Object, Array, String, Int64, ...${PATH}`),
  fn("JSON_VALUE", 2, "Scalar at a JSONPath such as '$.a.b', as a string"),
  fn("JSON_QUERY", 2, "JSON text of the value(s) at a JSONPath"),
  fn("JSON_EXISTS", 2, "Whether a JSONPath matches"),
  fn("isValidJSON", 1, "Whether the string is valid JSON"),
  fn("simpleJSONExtractString", 2, "Fast, limited: string value of a top-level field"),
  fn("simpleJSONExtractInt", 2, "Fast, limited: integer value of a top-level field"),
  fn("simpleJSONExtractUInt", 2, "Fast, limited: unsigned integer value of a top-level field"),
  fn("simpleJSONExtractFloat", 2, "Fast, limited: float value of a top-level field"),
  fn("simpleJSONExtractBool", 2, "Fast, limited: boolean value of a top-level field"),
  fn("simpleJSONExtractRaw", 2, "Fast, limited: unparsed text of a top-level field"),
  fn("simpleJSONHas", 2, "Fast, limited: whether a top-level field exists"),
  fn("toJSONString", 1, "Serializes a value to JSON text"),
];
