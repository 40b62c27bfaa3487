import { CI, definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("conversion");

const NUMBER_TYPES = [
  "Int8",
  "Int16",
  "Int32",
  "Int64",
  "UInt8",
  "UInt16",
  "UInt32",
  "UInt64",
  "Float32",
  "Float64",
] as const;
const DECIMAL_TYPES = ["Decimal32", "Decimal64", "Decimal128", "Decimal256"] as const;

/** toT(x), toTOrNull(x), toTOrZero(x); decimals take a scale: toDecimal64(x, scale). */
const numberConversions = (): FunctionDef[] => [
  ...NUMBER_TYPES.flatMap((type) => [
    fn(`to${type}`, 1, `Converts to ${type}; error when text does not parse`),
    fn(`to${type}OrNull`, 1, `Converts to ${type}, NULL when text does not parse`),
    fn(`to${type}OrZero`, 1, `Converts to ${type}, 0 when text does not parse`),
  ]),
  ...DECIMAL_TYPES.flatMap((type) => [
    fn(`to${type}`, 2, `Converts to ${type}(S): (value, scale)`),
    fn(`to${type}OrNull`, 2, `Converts to ${type}(S), NULL when text does not parse`),
    fn(`to${type}OrZero`, 2, `Converts to ${type}(S), 0 when text does not parse`),
  ]),
];

export const CONVERSION_FUNCTIONS: readonly FunctionDef[] = [
  fn("toString", [1, 2], "Converts to String; (value[, time_zone]) for times"),
  fn("toFixedString", 2, "Converts to FixedString(N): (s, N)"),
  fn("toDecimalString", 2, "Number as text with a fixed number of decimals: (x, scale)", CI),
  fn("toBool", 1, "Converts to Bool (numbers, 'true'/'false')"),
  fn("toUUID", 1, "Converts text to UUID; error when it does not parse"),
  fn("toUUIDOrNull", 1, "Converts text to UUID, NULL when it does not parse"),
  fn("toUUIDOrZero", 1, "Converts text to UUID, the zero UUID when it does not parse"),
  fn("toLowCardinality", 1, "The value as LowCardinality"),
  ...numberConversions(),
  fn("toInt128", 1, "Converts to Int128"),
  fn("toInt256", 1, "Converts to Int256"),
  fn("toUInt128", 1, "Converts to UInt128"),
  fn("toUInt256", 1, "Converts to UInt256"),
];
