import { quoteIdentifier } from "../telemetry/executor.js";
import { PROJECT_COLUMN, type TableDef } from "../telemetry/tables.js";
import type { Analysis } from "./analyzer.js";
import {
  type CallExpr,
  type Cte,
  type Expr,
  type FromClause,
  inList,
  type ParamExpr,
  type Query,
  type SelectQuery,
  type TableRef,
} from "./ast.js";
import { printType } from "./data-types.js";
import { printParamType } from "./parameter-types.js";

/** The name of the bound parameter carrying the caller's project id. */
export const PROJECT_PARAM = "project";

export interface PrintOptions {
  /** The ClickHouse database holding the telemetry tables. */
  database: string;
  /** The top-level LIMIT becomes min(the query's own, rowCap). */
  rowCap: number;
}

/**
 * The engine's name for the query's placeholder `{name:…}`: `p_name`, which no parameter of the
 * printer's own (`project`, `sN`) can be, so a user's name never stands for the project guard's.
 */
export const parameterKey = (name: string): string => `p_${name}`;

/** A value as the engine binds it (parameter-values.ts): its text, a number, or a list. */
export type BoundValue = string | number | readonly (string | number)[];

export interface PrintedQuery {
  /** ClickHouse SQL; `{project:String}`, `{sN:String}` and `{p_name:Type}` are bound parameters. */
  readonly sql: string;
  /** String literals of the query and the placeholders' values, by parameter name. */
  readonly params: Readonly<Record<string, BoundValue>>;
}

/**
 * Engine settings the guard depends on. Without them the engine may evaluate the query's own
 * conditions on rows (or skip-index values) of granules shared with other projects before the
 * project filter has removed them, and an expression that throws on a value would tell the
 * query about another project's data:
 * - the project filter is an explicit PREWHERE and no other condition may be moved before it;
 * - skip indexes, whose analysis evaluates conditions on every granule's values, are not used;
 * - implicit min/max projections, computed over all projects' rows, are not used.
 */
export const GUARD_SETTINGS = {
  optimize_move_to_prewhere: 0,
  use_skip_indexes: 0,
  optimize_use_implicit_projections: 0,
} as const;

/** The guarded read of each table, by database and table name; built once. */
const GUARDED = new Map<string, string>();

const NUMBER = /^-?(?:\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)$/;

/**
 * Prints ClickHouse SQL from an analyzed syntax tree. Nothing of the user's text is passed
 * through: names are re-quoted, string literals become bound parameters, numbers are
 * re-checked digits, and every TQL table is read through a subquery that applies the project
 * guard and leaves the project column out.
 */
export function printTql(query: Query, analysis: Analysis, options: PrintOptions): PrintedQuery {
  const printer = new Printer(analysis, options);
  const sql = printer.top(query);
  return { sql, params: printer.params };
}

class Printer {
  readonly params: Record<string, string> = {};
  private readonly paramByValue = new Map<string, string>();

  constructor(
    private readonly analysis: Analysis,
    private readonly options: PrintOptions,
  ) {}

  /** The statement, with the row cap applied to the outermost result. */
  top(query: Query): string {
    const cap = this.options.rowCap;
    if (query.kind === "union") return `SELECT * FROM (${this.query(query)}) LIMIT ${cap}`;
    return this.select(query, cap);
  }

  private query(query: Query): string {
    if (query.kind === "select") return this.select(query);
    return query.selects
      .map((select, index) => {
        const printed = `(${this.query(select)})`;
        return index === 0 ? printed : `UNION ${query.modes[index - 1]} ${printed}`;
      })
      .join(" ");
  }

  private select(select: SelectQuery, rowCap?: number): string {
    const parts: string[] = [];
    if (select.with.length > 0)
      parts.push(`WITH ${select.with.map((cte) => this.cte(cte)).join(", ")}`);
    parts.push(
      `SELECT${select.distinct ? " DISTINCT" : ""} ${select.columns.map((item) => this.aliased(item.expr, item.alias)).join(", ")}`,
    );
    if (select.from) parts.push(`FROM ${this.from(select.from)}`);
    // The query's PREWHERE becomes part of its WHERE: only the project guard may run as a
    // PREWHERE (GUARD_SETTINGS), and a PREWHERE cannot apply to the guarded subquery anyway.
    const filters = [select.prewhere, select.where].filter((e): e is Expr => e !== undefined);
    if (filters.length > 0) parts.push(`WHERE ${filters.map((e) => this.expr(e)).join(" AND ")}`);
    if (select.groupBy.length > 0) parts.push(`GROUP BY ${this.list(select.groupBy)}`);
    if (select.having) parts.push(`HAVING ${this.expr(select.having)}`);
    if (select.orderBy.length > 0)
      parts.push(
        `ORDER BY ${select.orderBy
          .map(
            (item) =>
              `${this.expr(item.expr)} ${item.direction}${item.nulls ? ` NULLS ${item.nulls}` : ""}`,
          )
          .join(", ")}`,
      );
    if (select.limitBy) {
      const { count, offset, by } = select.limitBy;
      parts.push(
        `LIMIT ${offset ? `${digits(offset)}, ` : ""}${digits(count)} BY ${this.list(by)}`,
      );
    }
    const { limit } = select;
    const capped = rowCap !== undefined && (!limit || BigInt(limit.count) >= BigInt(rowCap));
    const count = capped ? String(rowCap) : limit?.count;
    if (count !== undefined)
      parts.push(`LIMIT ${digits(count)}${limit?.offset ? ` OFFSET ${digits(limit.offset)}` : ""}`);
    return parts.join(" ");
  }

  private cte(cte: Cte): string {
    if (cte.kind === "query") return `${quoteIdentifier(cte.name)} AS (${this.query(cte.query)})`;
    return `${this.expr(cte.expr)} AS ${quoteIdentifier(cte.name)}`;
  }

  private aliased(expr: Expr, alias: string | undefined): string {
    const printed = this.expr(expr);
    return alias === undefined ? printed : `${printed} AS ${quoteIdentifier(alias)}`;
  }

  private from(from: FromClause): string {
    let sql = this.tableRef(from.table);
    for (const join of from.joins) {
      if (join.kind === "arrayJoin") {
        const items = join.items.map((item) => this.aliased(item.expr, item.alias)).join(", ");
        sql += ` ${join.left ? "LEFT " : ""}ARRAY JOIN ${items}`;
        continue;
      }
      const strictness = join.strictness ? `${join.strictness} ` : "";
      sql += ` ${strictness}${join.joinKind} JOIN ${this.tableRef(join.table)}`;
      if (join.on) sql += ` ON ${this.expr(join.on)}`;
      if (join.using) sql += ` USING (${join.using.map(quoteIdentifier).join(", ")})`;
    }
    return sql;
  }

  private tableRef(ref: TableRef): string {
    const alias = ref.alias !== undefined ? ` AS ${quoteIdentifier(ref.alias)}` : "";
    if (ref.kind === "subquery") return `(${this.query(ref.query)})${alias}`;
    const table = this.analysis.tables.get(ref);
    // Not a TQL table: the analyzer bound it to a CTE of the query.
    if (!table) return `${quoteIdentifier(ref.name)}${alias}`;
    return `${this.guarded(table)} AS ${quoteIdentifier(ref.alias ?? ref.name)}`;
  }

  /** A TQL table as the caller may see it: their project's rows, without the project column. */
  private guarded(table: TableDef): string {
    const key = `${this.options.database}.${table.name}`;
    let sql = GUARDED.get(key);
    if (!sql) {
      const columns = table.columns
        .filter((column) => column.name !== PROJECT_COLUMN)
        .map((column) => quoteIdentifier(column.name))
        .join(", ");
      const source = `${quoteIdentifier(this.options.database)}.${quoteIdentifier(table.name)}${table.readFinal ? " FINAL" : ""}`;
      // PREWHERE: the project filter runs before anything of the query sees a row (see
      // GUARD_SETTINGS), so no user expression is ever evaluated on another project's values.
      sql = `(SELECT ${columns} FROM ${source} PREWHERE ${quoteIdentifier(PROJECT_COLUMN)} = {${PROJECT_PARAM}:String})`;
      GUARDED.set(key, sql);
    }
    return sql;
  }

  private list(exprs: readonly Expr[]): string {
    return exprs.map((expr) => this.expr(expr)).join(", ");
  }

  private expr(expr: Expr): string {
    switch (expr.kind) {
      case "literal":
        return this.literal(expr.type, expr.value);
      case "column":
        return [...(expr.table === undefined ? [] : [expr.table]), expr.name, ...(expr.path ?? [])]
          .map(quoteIdentifier)
          .join(".");
      case "star": {
        const star = expr.table === undefined ? "*" : `${quoteIdentifier(expr.table)}.*`;
        return expr.except
          ? `${star} EXCEPT (${expr.except.map(quoteIdentifier).join(", ")})`
          : star;
      }
      case "array":
        return `[${this.list(expr.items)}]`;
      case "tuple":
        return `tuple(${this.list(expr.items)})`;
      case "index":
        return `${this.expr(expr.target)}[${this.expr(expr.index)}]`;
      case "tupleAccess":
        return `tupleElement(${this.expr(expr.target)}, ${expr.index})`;
      case "unary":
        return expr.op === "-"
          ? `negate(${this.expr(expr.operand)})`
          : `(NOT ${this.expr(expr.operand)})`;
      case "logical":
        return `(${expr.operands.map((operand) => this.expr(operand)).join(` ${expr.op} `)})`;
      case "binary":
        return `(${this.expr(expr.left)} ${expr.op} ${this.expr(expr.right)})`;
      case "in": {
        const list = inList(expr);
        const right =
          list.kind === "exprs"
            ? `tuple(${this.list(list.exprs)})`
            : list.kind === "param"
              ? this.placeholder(list.param)
              : `(${this.query(list.query)})`;
        return `(${this.expr(expr.expr)} ${expr.not ? "NOT IN" : "IN"} ${right})`;
      }
      case "between":
        return `(${this.expr(expr.expr)} ${expr.not ? "NOT BETWEEN" : "BETWEEN"} ${this.expr(expr.low)} AND ${this.expr(expr.high)})`;
      case "isNull":
        return `(${this.expr(expr.expr)} IS ${expr.not ? "NOT NULL" : "NULL"})`;
      case "case": {
        const operand = expr.operand ? ` ${this.expr(expr.operand)}` : "";
        const whens = expr.whens
          .map((w) => ` WHEN ${this.expr(w.condition)} THEN ${this.expr(w.result)}`)
          .join("");
        const otherwise = expr.else ? ` ELSE ${this.expr(expr.else)}` : "";
        return `(CASE${operand}${whens}${otherwise} END)`;
      }
      case "ternary":
        return `if(${this.expr(expr.condition)}, ${this.expr(expr.then)}, ${this.expr(expr.else)})`;
      case "call":
        return this.call(expr);
      case "lambda": {
        const params = expr.params.map(quoteIdentifier);
        const head = params.length === 1 ? params[0] : `(${params.join(", ")})`;
        return `${head} -> ${this.expr(expr.body)}`;
      }
      case "interval":
        return `INTERVAL ${this.expr(expr.value)} ${expr.unit}`;
      case "cast":
        return `CAST(${this.expr(expr.expr)} AS ${printType(expr.type)})`;
      case "subquery":
        return `(${this.query(expr.query)})`;
      case "exists":
        return `EXISTS (${this.query(expr.query)})`;
      case "param":
        return this.placeholder(expr);
    }
  }

  /** A placeholder under its engine name; its value is bound (compile.ts), never printed. */
  private placeholder(param: ParamExpr): string {
    const key = parameterKey(param.name);
    if (!/^p_[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(key))
      throw new Error(`Refusing to print parameter '${param.name}'`);
    return `{${key}:${printParamType(param.type)}}`;
  }

  private call(call: CallExpr): string {
    const resolved = this.analysis.functions.get(call);
    if (!resolved) throw new Error(`Unanalyzed call to ${call.name}`);
    const params = call.params ? `(${this.list(call.params)})` : "";
    const countStar = call.args.length === 1 && call.args[0]?.kind === "star";
    const args = countStar ? "" : this.list(call.args);
    return `${resolved.name}${params}(${call.distinct ? "DISTINCT " : ""}${args})`;
  }

  private literal(
    type: "number" | "string" | "null" | "bool",
    value: string | boolean | null,
  ): string {
    if (type === "null") return "NULL";
    if (type === "bool") return value ? "true" : "false";
    if (type === "number") return digits(String(value));
    return this.param(String(value));
  }

  /** A string literal as a bound parameter; equal strings share one, so equal expressions print alike. */
  private param(value: string): string {
    let name = this.paramByValue.get(value);
    if (!name) {
      name = `s${this.paramByValue.size}`;
      this.paramByValue.set(value, name);
      this.params[name] = value;
    }
    return `{${name}:String}`;
  }
}

/** A number exactly as the lexer produced it; anything else is a bug, never printed. */
function digits(text: string): string {
  if (!NUMBER.test(text)) throw new Error(`Refusing to print '${text}' as a number`);
  return text;
}
