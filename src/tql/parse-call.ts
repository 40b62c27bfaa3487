import { INTERVAL_UNITS, type IntervalUnit } from "../contracts/tql-dialect.js";
import type { CallExpr, Expr } from "./ast.js";
import type { TokenStream } from "./token-stream.js";
import { TqlSyntaxError } from "./tql-errors.js";

/** The expression parser's entry point: one expression binding tighter than `minBp`. */
export type ParseExpr = (minBp?: number) => Expr;

/** Plural and short spellings ClickHouse accepts for interval units. */
const UNIT_ALIASES: Readonly<Record<string, IntervalUnit>> = Object.fromEntries(
  INTERVAL_UNITS.flatMap((unit) => [
    [unit, unit],
    [`${unit}S`, unit],
  ]),
);

/** Functions that take a unit keyword first: `dateAdd(DAY, 1, t)`. */
const DATE_ARITHMETIC = new Set([
  "dateadd",
  "date_add",
  "datesub",
  "date_sub",
  "timestampadd",
  "timestamp_add",
  "timestampsub",
  "timestamp_sub",
]);

/** Functions whose unit comes first and may be a bare keyword: `dateDiff(hour, a, b)`. */
const DATE_DIFF = new Set(["datediff", "date_diff", "timestampdiff", "timestamp_diff", "age"]);

/** The interval unit keyword at token `ahead` (`HOUR`, `hours`, …), if it is one. */
export function intervalUnitAt(ts: TokenStream, ahead: number): IntervalUnit | undefined {
  const token = ts.peek(ahead);
  return token.kind === "word" ? UNIT_ALIASES[token.text.toUpperCase()] : undefined;
}

/**
 * A function call at the current name: `f(a, b)`, `f(DISTINCT x)`, a parametric aggregate's
 * two lists `quantile(0.95)(x)`, lambdas among the arguments, and the unit-keyword forms of the
 * date functions.
 */
export function parseCall(ts: TokenStream, parse: ParseExpr): CallExpr {
  const nameToken = ts.next();
  const pos = nameToken.pos;
  const unitForm = dateArithmeticWithUnit(ts, parse, nameToken.text, pos);
  if (unitForm) return unitForm;
  let { args, distinct } = callArguments(ts, parse, DATE_DIFF.has(nameToken.text.toLowerCase()));
  let params: Expr[] | undefined;
  if (ts.isOp("(")) {
    // quantile(0.95)(x): the first list was the parameters.
    if (distinct) throw new TqlSyntaxError("DISTINCT belongs in the argument list", pos);
    params = args;
    ({ args, distinct } = callArguments(ts, parse));
    if (ts.isOp("("))
      throw new TqlSyntaxError(`${nameToken.text} takes at most two argument lists`, ts.peek().pos);
  }
  return ts.node({
    kind: "call",
    name: nameToken.text,
    args,
    distinct,
    pos,
    ...(params ? { params } : {}),
  });
}

/**
 * `dateAdd(DAY, 1, t)`: ClickHouse reads the unit as a keyword. It becomes the equivalent
 * `dateAdd(t, INTERVAL 1 DAY)`, so the unit is never taken for a column.
 */
function dateArithmeticWithUnit(
  ts: TokenStream,
  parse: ParseExpr,
  name: string,
  pos: number,
): CallExpr | undefined {
  if (!DATE_ARITHMETIC.has(name.toLowerCase())) return undefined;
  const unitToken = ts.peek(1);
  const unit = intervalUnitAt(ts, 1);
  if (!unit || !ts.isOp(",", 2)) return undefined;
  ts.expectOp("(");
  ts.next();
  ts.next();
  const value = parse();
  ts.expectOp(",");
  const date = parse();
  ts.expectOp(")");
  const interval = ts.node<Expr>({ kind: "interval", value, unit, pos: unitToken.pos });
  return ts.node({ kind: "call", name, args: [date, interval], distinct: false, pos });
}

/** `(…)`; with `unitFirst`, a bare unit keyword first (`dateDiff(hour, a, b)`) becomes its name. */
function callArguments(
  ts: TokenStream,
  parse: ParseExpr,
  unitFirst = false,
): { args: Expr[]; distinct: boolean } {
  ts.expectOp("(");
  const distinct = ts.acceptWord("DISTINCT");
  const args: Expr[] = [];
  const unitToken = ts.peek();
  const unit = unitFirst ? intervalUnitAt(ts, 0) : undefined;
  if (unit && ts.isOp(",", 1)) {
    ts.next();
    ts.next();
    args.push(
      ts.node({ kind: "literal", type: "string", value: unit.toLowerCase(), pos: unitToken.pos }),
    );
  }
  if (!ts.isOp(")")) {
    do args.push(argument(ts, parse));
    while (ts.acceptOp(","));
  }
  ts.expectOp(")");
  return { args, distinct };
}

/** A call argument, which may be a lambda: `x -> x * 2` or `(x, y) -> x + y`. */
function argument(ts: TokenStream, parse: ParseExpr): Expr {
  const pos = ts.peek().pos;
  if (ts.isNameLike() && ts.isOp("->", 1)) {
    const param = ts.next().text;
    ts.next();
    return lambda(ts, parse, [param], pos);
  }
  if (ts.isOp("(")) {
    const params = lambdaParams(ts);
    if (params) return lambda(ts, parse, params, pos);
  }
  return parse();
}

/** Reads `(a, b) ->` when it is there; otherwise consumes nothing. */
function lambdaParams(ts: TokenStream): string[] | undefined {
  const names: string[] = [];
  let ahead = 1;
  for (;;) {
    if (!ts.isNameLike(ahead)) return undefined;
    names.push(ts.peek(ahead).text);
    if (ts.isOp(",", ahead + 1)) ahead += 2;
    else if (ts.isOp(")", ahead + 1) && ts.isOp("->", ahead + 2)) break;
    else return undefined;
  }
  for (let i = 0; i < ahead + 3; i++) ts.next();
  return names;
}

function lambda(ts: TokenStream, parse: ParseExpr, params: string[], pos: number): Expr {
  const body = parse();
  return ts.node({ kind: "lambda", params, body, pos });
}
