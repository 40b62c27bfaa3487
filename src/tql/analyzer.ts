import { PROJECT_COLUMN, type TableDef, TELEMETRY_TABLES } from "../telemetry/tables.js";
import {
  type CallExpr,
  type ColumnRef,
  childrenOf,
  type Expr,
  type ParamExpr,
  type Query,
  type SelectItem,
  type SelectQuery,
  type TableRef,
} from "./ast.js";
import { checkCallArity, resolveCall } from "./call-checks.js";
import { checkType } from "./data-types.js";
import type { ResolvedFunction } from "./functions.js";
import {
  chain,
  cteNames,
  emptyScope,
  findCte,
  findSource,
  isVisible,
  type Scope,
  type Source,
  unknownName,
  visibleNames,
} from "./name-scopes.js";
import { sameParamType, showParamType } from "./parameter-types.js";
import { TqlError } from "./tql-errors.js";

/** What the analyzer learned that the printer needs. */
export interface Analysis {
  /** Each table reference bound to a TQL table; references absent here name a CTE. */
  readonly tables: ReadonlyMap<TableRef, TableDef>;
  /** Each call bound to its registry entry. */
  readonly functions: ReadonlyMap<CallExpr, ResolvedFunction>;
  /** The bound parameters the query uses, by name: the first use of each (its type and place). */
  readonly parameters: ReadonlyMap<string, ParamExpr>;
}

export interface AnalyzeLimits {
  /** Most table references (each one is read under the project guard). */
  maxTableReferences: number;
}

const TABLES = new Map(TELEMETRY_TABLES.map((table) => [table.name as string, table]));
/** The columns a query sees of each table: all but the project column. */
const VISIBLE_COLUMNS = new Map(
  TELEMETRY_TABLES.map((table) => [
    table,
    new Set(table.columns.map((c) => c.name).filter((name) => name !== PROJECT_COLUMN)),
  ]),
);
const HIDDEN = `${PROJECT_COLUMN} is not available in TQL: every query is already limited to the API key's project`;

/**
 * Resolves every table, column and function of a parsed query against the TQL schema and the
 * function registry, and refuses what TQL does not allow. The printer relies on the returned
 * bindings; the engine still type-checks the printed SQL.
 */
export function analyzeTql(query: Query, limits: AnalyzeLimits): Analysis {
  const analyzer = new Analyzer(limits);
  analyzer.query(query, undefined);
  return {
    tables: analyzer.tables,
    functions: analyzer.functions,
    parameters: analyzer.parameters,
  };
}

class Analyzer {
  readonly tables = new Map<TableRef, TableDef>();
  readonly functions = new Map<CallExpr, ResolvedFunction>();
  readonly parameters = new Map<string, ParamExpr>();
  private tableReferences = 0;

  constructor(private readonly limits: AnalyzeLimits) {}

  /** Analyzes a query and returns its output columns. */
  query(query: Query, parent: Scope | undefined): Source {
    if (query.kind === "union") {
      // ClickHouse lets every branch use the WITH clause of the first one.
      let shared = parent;
      const [first, ...rest] = query.selects.map((branch, index) => {
        if (index > 0 || branch.kind !== "select") return this.query(branch, shared);
        shared = this.withClause(branch, parent);
        return this.body(branch, shared);
      });
      for (const branch of rest)
        if (first && branch.columns.size !== first.columns.size && !first.open && !branch.open)
          throw new TqlError(
            `Every UNION branch must return the same number of columns (${first.columns.size} and ${branch.columns.size})`,
            query.pos,
          );
      return first as Source;
    }
    return this.body(query, this.withClause(query, parent));
  }

  /** The scope of a SELECT's WITH clause; CTE queries are analyzed here, once. */
  private withClause(select: SelectQuery, parent: Scope | undefined): Scope | undefined {
    if (select.with.length === 0) return parent;
    const scope = emptyScope(parent);
    for (const cte of select.with) {
      this.defineName(cte.name, cte.pos);
      if (cte.kind === "query")
        scope.ctes.set(cte.name, { ...this.query(cte.query, scope), name: cte.name });
      else scope.withAliases.add(cte.name);
    }
    return scope;
  }

  /** Everything of a SELECT after its WITH clause; returns its output columns. */
  private body(select: SelectQuery, withScope: Scope | undefined): Source {
    const scope = emptyScope(withScope);
    for (const item of select.columns) if (item.alias !== undefined) this.alias(item, scope);
    if (select.from) {
      scope.sources.push(this.tableRef(select.from.table, scope));
      for (const join of select.from.joins) {
        if (join.kind === "arrayJoin") {
          for (const item of join.items) {
            this.expr(item.expr, scope);
            if (item.alias !== undefined) this.alias(item, scope);
          }
          continue;
        }
        const source = this.tableRef(join.table, scope);
        scope.sources.push(source);
        for (const column of join.using ?? []) this.usingColumn(column, scope, join.pos);
        if (join.on) this.expr(join.on, scope);
      }
    }
    // `WITH expr AS name` is substituted where it is used, so it may read the FROM columns.
    for (const cte of select.with) if (cte.kind === "expr") this.expr(cte.expr, scope);
    const columns = new Set<string>();
    let open = false;
    for (const item of select.columns) {
      if (item.expr.kind === "star") {
        const except = new Set(item.expr.except);
        const sources = this.starSources(item.expr.table, scope, item.pos);
        for (const name of except) {
          if (name === PROJECT_COLUMN) throw new TqlError(HIDDEN, item.pos);
          if (!sources.some((source) => source.open || source.columns.has(name)))
            throw new TqlError(`Unknown column '${name}' in EXCEPT`, item.pos);
        }
        for (const source of sources) {
          for (const column of source.columns) if (!except.has(column)) columns.add(column);
          open ||= source.open;
        }
        continue;
      }
      this.expr(item.expr, scope);
      const name = item.alias ?? (item.expr.kind === "column" ? item.expr.name : undefined);
      if (name === undefined) open = true;
      else columns.add(name);
    }
    for (const clause of [select.prewhere, select.where, select.having])
      if (clause) this.expr(clause, scope);
    for (const expr of select.groupBy) this.expr(expr, scope);
    for (const item of select.orderBy) this.expr(item.expr, scope);
    for (const expr of select.limitBy?.by ?? []) this.expr(expr, scope);
    return { name: "", columns, open };
  }

  private alias(item: SelectItem, scope: Scope): void {
    this.defineName(item.alias as string, item.pos);
    scope.aliases.add(item.alias as string);
  }

  /** A name the query defines (alias, CTE, lambda parameter) may not be the hidden column. */
  private defineName(name: string, pos: number): void {
    if (name === PROJECT_COLUMN) throw new TqlError(HIDDEN, pos);
  }

  private tableRef(ref: TableRef, scope: Scope): Source {
    if (ref.alias !== undefined) this.defineName(ref.alias, ref.pos);
    if (ref.kind === "subquery") {
      const output = this.query(ref.query, scope);
      return { ...output, name: ref.alias ?? "" };
    }
    const cte = findCte(ref.name, scope);
    if (cte) return { ...cte, name: ref.alias ?? ref.name };
    const table = TABLES.get(ref.name);
    if (!table) {
      const known = [...TABLES.keys(), ...cteNames(scope)];
      throw new TqlError(unknownName("table", ref.name, known, TABLES.keys()), ref.pos);
    }
    if (++this.tableReferences > this.limits.maxTableReferences)
      throw new TqlError(
        `The query reads too many tables (more than ${this.limits.maxTableReferences} table references)`,
        ref.pos,
      );
    this.tables.set(ref, table);
    const columns = VISIBLE_COLUMNS.get(table) ?? new Set<string>();
    return { name: ref.alias ?? ref.name, columns, open: false };
  }

  private usingColumn(column: string, scope: Scope, pos: number): void {
    if (column === PROJECT_COLUMN) throw new TqlError(HIDDEN, pos);
    if (!scope.sources.some((source) => source.open || source.columns.has(column)))
      throw new TqlError(`Unknown column '${column}' in USING`, pos);
  }

  private starSources(table: string | undefined, scope: Scope, pos: number): Source[] {
    if (table === undefined) return scope.sources;
    const source = scope.sources.find((s) => s.name === table);
    if (!source)
      throw new TqlError(
        unknownName(
          "table",
          table,
          scope.sources.map((s) => s.name),
        ),
        pos,
      );
    return [source];
  }

  private expr(expr: Expr, scope: Scope): void {
    switch (expr.kind) {
      case "column":
        this.column(expr, scope);
        return;
      case "star":
        throw new TqlError("'*' is only allowed in the SELECT list and in count(*)", expr.pos);
      case "call":
        this.call(expr, scope);
        return;
      case "lambda":
        throw new TqlError(
          "A lambda is only allowed as an argument of a higher-order function such as arrayMap",
          expr.pos,
        );
      case "cast":
        checkType(expr.type);
        break;
      case "param":
        this.parameter(expr);
        return;
    }
    const { exprs, queries } = childrenOf(expr);
    this.each(exprs, scope);
    for (const query of queries) this.query(query, scope);
  }

  /** A placeholder: one name has one type wherever the query uses it. */
  private parameter(param: ParamExpr): void {
    const first = this.parameters.get(param.name);
    if (!first) {
      this.parameters.set(param.name, param);
      return;
    }
    if (!sameParamType(first.type, param.type))
      throw new TqlError(
        `Parameter {${param.name}} is used as ${showParamType(first.type)} and as ${showParamType(param.type)}; give it one type`,
        param.pos,
      );
  }

  private each(exprs: readonly Expr[], scope: Scope): void {
    for (const expr of exprs) this.expr(expr, scope);
  }

  /**
   * A name in an expression. With a qualifier, the first part is a table of this query or an
   * enclosing one (correlated subqueries), or else a column or alias whose subcolumn or tuple
   * element is read (`attributes.keys`, `t.name`).
   */
  private column(ref: ColumnRef, scope: Scope): void {
    const { table, name, path = [], pos } = ref;
    if ([table, name, ...path].includes(PROJECT_COLUMN)) throw new TqlError(HIDDEN, pos);
    if (table === undefined) {
      if (isVisible(name, scope)) return;
      const where = scope.sources.length === 0 ? " (the query has no FROM clause)" : "";
      throw new TqlError(`${unknownName("column", name, visibleNames(scope))}${where}`, pos);
    }
    const source = findSource(table, scope);
    if (source) {
      if (!source.open && !source.columns.has(name))
        throw new TqlError(
          unknownName("column", `${table}.${name}`, source.columns, source.columns, name),
          pos,
        );
      return;
    }
    if (isVisible(table, scope)) return;
    const tables = [...chain(scope)].flatMap((s) => s.sources.map((source) => source.name));
    throw new TqlError(unknownName("table", table, tables.filter(Boolean)), pos);
  }

  private call(call: CallExpr, scope: Scope): void {
    const resolved = resolveCall(call);
    this.functions.set(call, resolved);
    const { name } = resolved;
    const isCountStar = checkCallArity(call, resolved);
    if (call.params) this.each(call.params, scope);
    if (call.distinct && !resolved.aggregate)
      throw new TqlError(
        `DISTINCT is only allowed in aggregate functions, not in ${name}`,
        call.pos,
      );
    if (isCountStar) return;
    for (const [index, arg] of call.args.entries()) {
      if (arg.kind === "lambda") {
        if (!resolved.def.lambda || index !== 0)
          throw new TqlError(
            `${name} does not take a lambda${resolved.def.lambda ? " there: the lambda comes first" : ""}`,
            arg.pos,
          );
        for (const param of arg.params) this.defineName(param, arg.pos);
        scope.lambdas.push([...arg.params]);
        try {
          this.expr(arg.body, scope);
        } finally {
          scope.lambdas.pop();
        }
      } else {
        this.expr(arg, scope);
      }
    }
  }
}
