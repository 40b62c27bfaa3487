import { CAST_TYPE_NAMES, type CastTypeName } from "../contracts/tql-dialect.js";
import type { TypeArg, TypeNode } from "./ast.js";
import { TqlError } from "./tql-errors.js";

/** How many arguments each data type takes, and of which kind. */
interface TypeRule {
  readonly args: "none" | "types" | "map" | "tuple" | "numbers" | "datetime" | "datetime64";
  readonly min?: number;
  readonly max?: number;
  /** Smallest numeric argument (FixedString(0) is not a type). */
  readonly minValue?: number;
}

const SCALAR: TypeRule = { args: "none" };

/**
 * The rule of each data type a CAST may name (contracts/tql-dialect.ts lists them for the
 * dashboard too); ClickHouse's own spellings, the common SQL aliases below.
 */
const TYPES: Readonly<Record<CastTypeName, TypeRule>> = {
  UInt8: SCALAR,
  UInt16: SCALAR,
  UInt32: SCALAR,
  UInt64: SCALAR,
  UInt128: SCALAR,
  UInt256: SCALAR,
  Int8: SCALAR,
  Int16: SCALAR,
  Int32: SCALAR,
  Int64: SCALAR,
  Int128: SCALAR,
  Int256: SCALAR,
  Float32: SCALAR,
  Float64: SCALAR,
  BFloat16: SCALAR,
  String: SCALAR,
  UUID: SCALAR,
  Date: SCALAR,
  Date32: SCALAR,
  Bool: SCALAR,
  IPv4: SCALAR,
  IPv6: SCALAR,
  FixedString: { args: "numbers", min: 1, max: 1, minValue: 1 },
  Decimal: { args: "numbers", min: 1, max: 2 },
  Decimal32: { args: "numbers", min: 1, max: 1 },
  Decimal64: { args: "numbers", min: 1, max: 1 },
  Decimal128: { args: "numbers", min: 1, max: 1 },
  Decimal256: { args: "numbers", min: 1, max: 1 },
  DateTime: { args: "datetime" },
  DateTime64: { args: "datetime64" },
  Nullable: { args: "types", min: 1, max: 1 },
  LowCardinality: { args: "types", min: 1, max: 1 },
  Array: { args: "types", min: 1, max: 1 },
  Map: { args: "map" },
  Tuple: { args: "tuple" },
};

/** SQL spellings ClickHouse also accepts, by upper-case name. */
const ALIASES: Readonly<Record<string, CastTypeName>> = {
  BOOLEAN: "Bool",
  BOOL: "Bool",
  TINYINT: "Int8",
  SMALLINT: "Int16",
  INT: "Int32",
  INTEGER: "Int32",
  BIGINT: "Int64",
  FLOAT: "Float32",
  REAL: "Float32",
  DOUBLE: "Float64",
  TEXT: "String",
  VARCHAR: "String",
  CHAR: "String",
  TIMESTAMP: "DateTime",
  DATE: "Date",
  DATETIME: "DateTime",
  DECIMAL: "Decimal",
  NUMERIC: "Decimal",
};

/** Time zone names: letters, digits and `/_+-`; checked so they can be printed inline. */
const TIME_ZONE = /^[A-Za-z][A-Za-z0-9/_+-]{0,63}$/;

/** The canonical name of a type, or undefined when TQL does not know it. */
function canonicalName(name: string): CastTypeName | undefined {
  const exact = CAST_TYPE_NAMES.find((known) => known === name);
  if (exact) return exact;
  const alias = ALIASES[name.toUpperCase()];
  if (alias) return alias;
  return CAST_TYPE_NAMES.find((known) => known.toLowerCase() === name.toLowerCase());
}

/** Refuses types TQL does not know or arguments that do not fit them. */
export function checkType(type: TypeNode): void {
  printType(type);
}

/**
 * Prints a data type from its syntax tree. Names come from the table above, numbers are
 * digits, and the only strings (time zones) are checked against a strict pattern, so nothing
 * from the query reaches the SQL unchecked.
 */
export function printType(type: TypeNode): string {
  const name = canonicalName(type.name);
  const rule = name && TYPES[name];
  if (!name || !rule) throw new TqlError(`Unknown data type '${type.name}'`, type.pos);
  const bad = (why: string) => new TqlError(`${name}: ${why}`, type.pos);
  const { args } = type;
  if (args.length < (rule.min ?? 0) || args.length > (rule.max ?? Number.POSITIVE_INFINITY))
    throw bad(`wrong number of arguments (${args.length})`);
  switch (rule.args) {
    case "none":
      if (args.length > 0) throw bad("takes no arguments");
      return name;
    case "numbers":
      return `${name}(${args.map((arg) => integer(arg, bad, rule.minValue)).join(", ")})`;
    case "types":
      return `${name}(${args.map((arg) => nestedType(arg, bad)).join(", ")})`;
    case "map":
      if (args.length !== 2) throw bad("takes a key type and a value type");
      return `${name}(${args.map((arg) => nestedType(arg, bad)).join(", ")})`;
    case "tuple":
      if (args.length === 0) throw bad("needs at least one element type");
      return `${name}(${args
        .map((arg) => {
          const printed = nestedType(arg, bad);
          if (arg.kind !== "type" || arg.field === undefined) return printed;
          if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(arg.field))
            throw bad(`invalid element name '${arg.field}'`);
          return `${arg.field} ${printed}`;
        })
        .join(", ")})`;
    case "datetime":
      if (args.length > 1) throw bad("takes at most a time zone");
      return args.length === 0 ? name : `${name}(${timeZone(args[0] as TypeArg, bad)})`;
    case "datetime64": {
      const [precision, zone] = args;
      if (!precision || args.length > 2) throw bad("takes a precision and optionally a time zone");
      const printed = integer(precision, bad);
      if (Number(printed) > 9) throw bad("precision is 0 to 9");
      return `${name}(${printed}${zone ? `, ${timeZone(zone, bad)}` : ""})`;
    }
  }
}

function integer(arg: TypeArg, bad: (why: string) => TqlError, min = 0): string {
  if (arg.kind !== "number" || !/^\d{1,3}$/.test(arg.value) || Number(arg.value) < min)
    throw bad(`expects whole numbers from ${min} to 999`);
  return String(Number(arg.value));
}

function nestedType(arg: TypeArg, bad: (why: string) => TqlError): string {
  if (arg.kind !== "type") throw bad("expects a type");
  return printType(arg.type);
}

function timeZone(arg: TypeArg, bad: (why: string) => TqlError): string {
  if (arg.kind !== "string" || !TIME_ZONE.test(arg.value))
    throw bad("expects a time zone name such as 'UTC' or 'Europe/Berlin'");
  return `'${arg.value}'`;
}
