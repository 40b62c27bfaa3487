/**
 * The TQL syntax tree. Every node is readonly and carries `pos`, the offset in the query text
 * where it starts, so the analyzer can point at the user's text when it rejects something.
 */

import type { IntervalUnit, TqlParameterType } from "../contracts/tql-dialect.js";

export type Expr =
  | Literal
  | ColumnRef
  | Star
  | ArrayExpr
  | TupleExpr
  | IndexExpr
  | TupleAccess
  | UnaryExpr
  | LogicalExpr
  | BinaryExpr
  | InExpr
  | BetweenExpr
  | IsNullExpr
  | CaseExpr
  | TernaryExpr
  | CallExpr
  | LambdaExpr
  | IntervalExpr
  | CastExpr
  | SubqueryExpr
  | ExistsExpr
  | ParamExpr;

interface Node {
  readonly pos: number;
}

export interface Literal extends Node {
  readonly kind: "literal";
  readonly type: "number" | "string" | "null" | "bool";
  /** Numbers keep their canonical text (see lexer); strings their unescaped value. */
  readonly value: string | boolean | null;
}

/**
 * `name`, `table.name`, or a longer path: `table.column.subcolumn`. Whether the first part
 * names a table or a column (`attributes.keys`, `tuple_alias.field`) is the analyzer's call.
 */
export interface ColumnRef extends Node {
  readonly kind: "column";
  readonly table?: string;
  readonly name: string;
  /** Parts after `name`: subcolumns and named tuple elements. */
  readonly path?: readonly string[];
}

/** `*` or `table.*`, optionally `EXCEPT (a, b)`. */
export interface Star extends Node {
  readonly kind: "star";
  readonly table?: string;
  readonly except?: readonly string[];
}

export interface ArrayExpr extends Node {
  readonly kind: "array";
  readonly items: readonly Expr[];
}

export interface TupleExpr extends Node {
  readonly kind: "tuple";
  readonly items: readonly Expr[];
}

/** `target[index]`: map, array or tuple element. */
export interface IndexExpr extends Node {
  readonly kind: "index";
  readonly target: Expr;
  readonly index: Expr;
}

/** `target.1`: tuple element by position. */
export interface TupleAccess extends Node {
  readonly kind: "tupleAccess";
  readonly target: Expr;
  readonly index: number;
}

export type UnaryOp = "-" | "NOT";

export interface UnaryExpr extends Node {
  readonly kind: "unary";
  readonly op: UnaryOp;
  readonly operand: Expr;
}

/** `a AND b AND c` as one node, so long generated chains do not nest deeply. */
export interface LogicalExpr extends Node {
  readonly kind: "logical";
  readonly op: "AND" | "OR";
  readonly operands: readonly Expr[];
}

export type BinaryOp =
  | "="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "LIKE"
  | "NOT LIKE"
  | "ILIKE"
  | "NOT ILIKE"
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "||";

export interface BinaryExpr extends Node {
  readonly kind: "binary";
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
}

export interface InExpr extends Node {
  readonly kind: "in";
  readonly expr: Expr;
  readonly not: boolean;
  /** A list, a subquery, or an `Array(T)` parameter: `x IN {ids:Array(String)}`. */
  readonly list: readonly Expr[] | Query | ParamExpr;
}

export interface BetweenExpr extends Node {
  readonly kind: "between";
  readonly expr: Expr;
  readonly not: boolean;
  readonly low: Expr;
  readonly high: Expr;
}

export interface IsNullExpr extends Node {
  readonly kind: "isNull";
  readonly expr: Expr;
  readonly not: boolean;
}

export interface CaseExpr extends Node {
  readonly kind: "case";
  readonly operand?: Expr;
  readonly whens: readonly { readonly condition: Expr; readonly result: Expr }[];
  readonly else?: Expr;
}

export interface TernaryExpr extends Node {
  readonly kind: "ternary";
  readonly condition: Expr;
  readonly then: Expr;
  readonly else: Expr;
}

export interface CallExpr extends Node {
  readonly kind: "call";
  /** As written; the analyzer resolves it against the function registry. */
  readonly name: string;
  /** Parameters of a parametric aggregate: `quantile(0.95)(x)` has params [0.95]. */
  readonly params?: readonly Expr[];
  readonly args: readonly Expr[];
  readonly distinct: boolean;
}

export interface LambdaExpr extends Node {
  readonly kind: "lambda";
  readonly params: readonly string[];
  readonly body: Expr;
}

export interface IntervalExpr extends Node {
  readonly kind: "interval";
  readonly value: Expr;
  readonly unit: IntervalUnit;
}

/** A ClickHouse data type: `String`, `Nullable(UInt64)`, `DateTime64(3, 'UTC')`, `Tuple(a String)`. */
export interface TypeNode extends Node {
  readonly name: string;
  readonly args: readonly TypeArg[];
}
export type TypeArg =
  | { readonly kind: "type"; readonly type: TypeNode; readonly field?: string }
  | { readonly kind: "number"; readonly value: string }
  | { readonly kind: "string"; readonly value: string };

export interface CastExpr extends Node {
  readonly kind: "cast";
  readonly expr: Expr;
  readonly type: TypeNode;
}

export interface SubqueryExpr extends Node {
  readonly kind: "subquery";
  readonly query: Query;
}

export interface ExistsExpr extends Node {
  readonly kind: "exists";
  readonly query: Query;
}

/** A bound parameter's declared type: one of TQL_PARAMETER_TYPES, or an Array of one. */
export interface ParamType {
  readonly scalar: TqlParameterType;
  /** DateTime64's precision, 0 to 9. */
  readonly precision?: number;
  readonly array: boolean;
}

/** `{name:Type}`: a value the caller binds; never part of the SQL text (see printer.ts). */
export interface ParamExpr extends Node {
  readonly kind: "param";
  readonly name: string;
  readonly type: ParamType;
  /** The macro that wrote it (`$__timeFilter`), for messages. */
  readonly macro?: string;
}

export interface SelectItem extends Node {
  readonly expr: Expr;
  readonly alias?: string;
}

/** `WITH name AS (SELECT …)` or ClickHouse's `WITH expr AS name`. */
export type Cte =
  | { readonly kind: "query"; readonly name: string; readonly query: Query; readonly pos: number }
  | { readonly kind: "expr"; readonly name: string; readonly expr: Expr; readonly pos: number };

export type TableRef =
  | { readonly kind: "table"; readonly name: string; readonly alias?: string; readonly pos: number }
  | {
      readonly kind: "subquery";
      readonly query: Query;
      readonly alias?: string;
      readonly pos: number;
    };

export type JoinKind = "INNER" | "LEFT" | "RIGHT" | "FULL" | "CROSS";

export interface Join extends Node {
  readonly kind: "join";
  readonly joinKind: JoinKind;
  /** ClickHouse strictness: `ANY`, `ALL`, `SEMI`, `ANTI`, `ASOF`; absent means ALL. */
  readonly strictness?: "ANY" | "ALL" | "SEMI" | "ANTI" | "ASOF";
  readonly table: TableRef;
  readonly on?: Expr;
  readonly using?: readonly string[];
}

export interface ArrayJoin extends Node {
  readonly kind: "arrayJoin";
  readonly left: boolean;
  readonly items: readonly SelectItem[];
}

export interface FromClause {
  readonly table: TableRef;
  readonly joins: readonly (Join | ArrayJoin)[];
}

export interface OrderItem extends Node {
  readonly expr: Expr;
  readonly direction: "ASC" | "DESC";
  readonly nulls?: "FIRST" | "LAST";
}

export interface Limit extends Node {
  /** Non-negative integers as text (they may exceed 2^53). */
  readonly count: string;
  readonly offset?: string;
}

export interface SelectQuery extends Node {
  readonly kind: "select";
  readonly with: readonly Cte[];
  readonly distinct: boolean;
  readonly columns: readonly SelectItem[];
  readonly from?: FromClause;
  readonly where?: Expr;
  readonly prewhere?: Expr;
  readonly groupBy: readonly Expr[];
  readonly having?: Expr;
  readonly orderBy: readonly OrderItem[];
  readonly limitBy?: {
    readonly count: string;
    readonly offset?: string;
    readonly by: readonly Expr[];
  };
  readonly limit?: Limit;
}

/** `a UNION ALL b UNION ALL c`; ORDER BY and LIMIT belong to the branches. */
export interface UnionQuery extends Node {
  readonly kind: "union";
  readonly selects: readonly Query[];
  /** How each branch after the first joins the ones before it. */
  readonly modes: readonly ("ALL" | "DISTINCT")[];
}

export type Query = SelectQuery | UnionQuery;

/** The expressions and queries directly inside an expression, for walks that treat most kinds alike. */
export function childrenOf(expr: Expr): { exprs: readonly Expr[]; queries: readonly Query[] } {
  const none: readonly Query[] = [];
  switch (expr.kind) {
    case "literal":
    case "column":
    case "star":
    case "param":
      return { exprs: [], queries: none };
    case "array":
    case "tuple":
      return { exprs: expr.items, queries: none };
    case "index":
      return { exprs: [expr.target, expr.index], queries: none };
    case "tupleAccess":
      return { exprs: [expr.target], queries: none };
    case "unary":
      return { exprs: [expr.operand], queries: none };
    case "logical":
      return { exprs: expr.operands, queries: none };
    case "binary":
      return { exprs: [expr.left, expr.right], queries: none };
    case "in": {
      const list = inList(expr);
      if (list.kind === "exprs") return { exprs: [expr.expr, ...list.exprs], queries: none };
      if (list.kind === "param") return { exprs: [expr.expr, list.param], queries: none };
      return { exprs: [expr.expr], queries: [list.query] };
    }
    case "between":
      return { exprs: [expr.expr, expr.low, expr.high], queries: none };
    case "isNull":
      return { exprs: [expr.expr], queries: none };
    case "case":
      return {
        exprs: [
          ...(expr.operand ? [expr.operand] : []),
          ...expr.whens.flatMap((branch) => [branch.condition, branch.result]),
          ...(expr.else ? [expr.else] : []),
        ],
        queries: none,
      };
    case "ternary":
      return { exprs: [expr.condition, expr.then, expr.else], queries: none };
    case "call":
      return { exprs: [...(expr.params ?? []), ...expr.args], queries: none };
    case "lambda":
      return { exprs: [expr.body], queries: none };
    case "interval":
      return { exprs: [expr.value], queries: none };
    case "cast":
      return { exprs: [expr.expr], queries: none };
    case "subquery":
    case "exists":
      return { exprs: [], queries: [expr.query] };
  }
}

/** What an IN reads from, told apart. */
export function inList(
  expr: InExpr,
):
  | { kind: "exprs"; exprs: readonly Expr[] }
  | { kind: "query"; query: Query }
  | { kind: "param"; param: ParamExpr } {
  const { list } = expr;
  if (Array.isArray(list)) return { kind: "exprs", exprs: list as readonly Expr[] };
  const single = list as Query | ParamExpr;
  return single.kind === "param"
    ? { kind: "param", param: single }
    : { kind: "query", query: single };
}
