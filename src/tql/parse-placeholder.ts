import { closestName } from "../contracts/name-suggestion.js";
import {
  TQL_MACROS,
  TQL_PARAMETER_NAME,
  TQL_WINDOW_PARAMETERS,
  type TqlMacro,
  type TqlWindowParameter,
} from "../contracts/tql-dialect.js";
import type { Expr, ParamExpr, ParamType } from "./ast.js";
import { parameterType, showParamType } from "./parameter-types.js";
import { parseType } from "./parse-type.js";
import type { TokenStream } from "./token-stream.js";
import { TqlSyntaxError } from "./tql-errors.js";

/** The expression parser's entry point: one whole expression. */
type ParseExpr = () => Expr;

const WINDOW_TYPES: Readonly<Record<TqlWindowParameter, ParamType>> = {
  from: { scalar: "DateTime64", precision: 3, array: false },
  to: { scalar: "DateTime64", precision: 3, array: false },
  bucket_seconds: { scalar: "UInt32", array: false },
};

const isWindowParameter = (name: string): name is TqlWindowParameter =>
  Object.hasOwn(TQL_WINDOW_PARAMETERS, name);

/**
 * `{name:Type}` at the current `{`: ClickHouse's query-parameter syntax. The name and the type
 * are checked here (TQL_PARAMETER_NAME, TQL_PARAMETER_TYPES); the time window's names keep
 * their fixed types.
 */
export function parsePlaceholder(ts: TokenStream): ParamExpr {
  const pos = ts.expectOp("{").pos;
  const nameToken = ts.peek();
  if (nameToken.kind !== "word" || !TQL_PARAMETER_NAME.test(nameToken.text))
    throw new TqlSyntaxError(
      "Expected a parameter name in {name:Type}: a letter or _, then up to 63 letters, digits or _",
      nameToken.pos,
    );
  ts.next();
  if (!ts.isOp(":")) throw ts.unexpected(`':' and a type after {${nameToken.text}`);
  ts.next();
  const type = parameterType(parseType(ts));
  ts.expectOp("}");
  const name = nameToken.text;
  if (isWindowParameter(name) && showParamType(type) !== TQL_WINDOW_PARAMETERS[name])
    throw new TqlSyntaxError(
      `{${name}} is the time window's and is always {${name}:${TQL_WINDOW_PARAMETERS[name]}}`,
      pos,
    );
  return ts.node({ kind: "param", name, type, pos });
}

const isMacro = (name: string): name is TqlMacro => Object.hasOwn(TQL_MACROS, name);

/**
 * A time macro at the current token, expanded into the syntax tree it stands for (TQL_MACROS):
 * `$__timeFilter(col)` into `col >= {from} AND col < {to}`, `$__timeInterval(col)` into
 * `toStartOfInterval(col, toIntervalSecond({bucket_seconds}))`. Each takes one expression.
 */
export function parseMacro(ts: TokenStream, parse: ParseExpr): Expr {
  const token = ts.next();
  const { text: macro, pos } = token;
  if (!isMacro(macro)) {
    const hint = closestName(macro, Object.keys(TQL_MACROS));
    throw new TqlSyntaxError(
      `Unknown macro ${macro}${hint ? ` (did you mean ${hint}?)` : ""}; TQL has $__timeFilter(column) and $__timeInterval(column)`,
      pos,
    );
  }
  if (!ts.isOp("(")) throw ts.unexpected(`'(' after ${macro}: ${macro}(timestamp)`);
  ts.next();
  const args: Expr[] = [];
  if (!ts.isOp(")")) {
    do args.push(parse());
    while (ts.acceptOp(","));
  }
  ts.expectOp(")");
  const [column] = args;
  if (args.length !== 1 || !column)
    throw new TqlSyntaxError(
      `${macro} takes one argument, the time column: ${macro}(timestamp); not ${args.length}`,
      pos,
    );
  const param = (name: TqlWindowParameter): ParamExpr =>
    ts.node({ kind: "param", name, type: WINDOW_TYPES[name], macro, pos });
  if (macro === "$__timeFilter")
    return ts.node({
      kind: "logical",
      op: "AND",
      operands: [
        ts.node<Expr>({ kind: "binary", op: ">=", left: column, right: param("from"), pos }),
        ts.node<Expr>({ kind: "binary", op: "<", left: column, right: param("to"), pos }),
      ],
      pos,
    });
  const interval = ts.node<Expr>({
    kind: "call",
    name: "toIntervalSecond",
    args: [param("bucket_seconds")],
    distinct: false,
    pos,
  });
  return ts.node({
    kind: "call",
    name: "toStartOfInterval",
    args: [column, interval],
    distinct: false,
    pos,
  });
}
