import type { Cte, Expr, Limit, OrderItem, Query, SelectItem, SelectQuery } from "./ast.js";
import { tokenize } from "./lexer.js";
import { ExprParser } from "./parse-expr.js";
import { type FromContext, parseFrom } from "./parse-from.js";
import { DEFAULT_PARSE_LIMITS, describe, type ParseLimits, TokenStream } from "./token-stream.js";
import { TqlSyntaxError } from "./tql-errors.js";

/** Statements TQL recognizes only to refuse them with a clear message. */
const NON_SELECT = new Set([
  "INSERT",
  "ALTER",
  "DROP",
  "CREATE",
  "DELETE",
  "UPDATE",
  "TRUNCATE",
  "RENAME",
  "ATTACH",
  "DETACH",
  "OPTIMIZE",
  "GRANT",
  "REVOKE",
  "SET",
  "USE",
  "SYSTEM",
  "KILL",
  "SHOW",
  "DESCRIBE",
  "DESC",
  "EXPLAIN",
  "EXISTS",
  "CHECK",
  "BACKUP",
  "RESTORE",
  "REPLACE",
  "UNDROP",
  "EXCHANGE",
  "MOVE",
  "WATCH",
  "BEGIN",
  "COMMIT",
  "ROLLBACK",
]);

/** Clauses after a query that TQL refuses, and why. */
const REFUSED_TRAILERS: Readonly<Record<string, string>> = {
  SETTINGS: "SETTINGS is not allowed: the server sets the query limits",
  FORMAT: "FORMAT is not allowed: results are always returned as JSON",
  INTO: "INTO OUTFILE is not allowed: results are returned in the response",
};

/** Parses one TQL statement (a SELECT, possibly with CTEs and UNIONs) into a syntax tree. */
export function parseTql(text: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Query {
  return new Parser(new TokenStream(tokenize(text), limits)).statement();
}

class Parser implements FromContext {
  readonly expr: ExprParser;

  constructor(readonly ts: TokenStream) {
    this.expr = new ExprParser(ts, () => this.parenthesizedQuery());
  }

  statement(): Query {
    const first = this.ts.peek();
    if (first.kind === "eof") throw new TqlSyntaxError("The query is empty", 0);
    if (first.kind === "word" && NON_SELECT.has(first.text.toUpperCase()))
      throw new TqlSyntaxError(
        `Only SELECT is permitted; ${first.text.toUpperCase()} statements are not allowed`,
        first.pos,
      );
    if (!this.ts.isWord("SELECT") && !this.ts.isWord("WITH") && !this.ts.isOp("("))
      throw this.ts.unexpected("SELECT");
    const query = this.query();
    this.trailer();
    return query;
  }

  /** What may follow the statement: an optional `;` and nothing else. */
  private trailer(): void {
    const ts = this.ts;
    const token = ts.peek();
    if (token.kind === "word") {
      const reason = REFUSED_TRAILERS[token.text.toUpperCase()];
      if (reason) throw new TqlSyntaxError(reason, token.pos);
    }
    if (ts.acceptOp(";")) {
      const after = ts.peek();
      if (after.kind !== "eof")
        throw new TqlSyntaxError("Only one statement is allowed per query", after.pos);
      return;
    }
    if (token.kind !== "eof")
      throw new TqlSyntaxError(
        `Unexpected ${describe(token)} after the end of the query`,
        token.pos,
      );
  }

  /** A SELECT or several joined by UNION. */
  query(): Query {
    const ts = this.ts;
    const pos = ts.peek().pos;
    return ts.nested(pos, () => {
      const first = this.unionBranch();
      const selects: Query[] = [first];
      const modes: ("ALL" | "DISTINCT")[] = [];
      while (ts.isWord("UNION")) {
        const union = ts.next();
        if (ts.acceptWord("ALL")) modes.push("ALL");
        else if (ts.acceptWord("DISTINCT")) modes.push("DISTINCT");
        else throw new TqlSyntaxError("Write UNION ALL or UNION DISTINCT", union.pos);
        selects.push(this.unionBranch());
      }
      for (const word of ["EXCEPT", "INTERSECT"])
        if (ts.isWord(word))
          throw new TqlSyntaxError(
            `${word} is not supported; use NOT IN or IN with a subquery`,
            ts.peek().pos,
          );
      if (selects.length === 1) return first;
      return ts.node({ kind: "union", selects, modes, pos });
    });
  }

  private unionBranch(): Query {
    return this.ts.isOp("(") ? this.parenthesizedQuery() : this.select();
  }

  /** `( query )`: a subquery anywhere, or a parenthesized UNION branch. */
  parenthesizedQuery(): Query {
    this.ts.expectOp("(");
    const query = this.query();
    this.ts.expectOp(")");
    return query;
  }

  private select(): SelectQuery {
    const ts = this.ts;
    const pos = ts.peek().pos;
    const ctes = ts.acceptWord("WITH") ? this.ctes() : [];
    ts.expectWord("SELECT");
    const distinct = ts.acceptWord("DISTINCT");
    if (!distinct) ts.acceptWord("ALL");
    const columns = this.selectItems();
    const from = ts.acceptWord("FROM") ? parseFrom(this) : undefined;
    const prewhere = ts.acceptWord("PREWHERE") ? this.expr.parse() : undefined;
    const where = ts.acceptWord("WHERE") ? this.expr.parse() : undefined;
    const groupBy = ts.acceptWord("GROUP") ? this.groupBy() : [];
    if (ts.isWord("WITH"))
      throw new TqlSyntaxError("WITH TOTALS, ROLLUP and CUBE are not supported", ts.peek().pos);
    const having = ts.acceptWord("HAVING") ? this.expr.parse() : undefined;
    for (const word of ["WINDOW", "QUALIFY"])
      if (ts.isWord(word)) throw new TqlSyntaxError(`${word} is not supported`, ts.peek().pos);
    const orderBy = ts.isWord("ORDER") ? this.orderBy() : [];
    let limitBy: SelectQuery["limitBy"];
    let limit: Limit | undefined;
    if (ts.isWord("LIMIT")) {
      const first = this.limit();
      if (ts.acceptWord("BY")) {
        limitBy = {
          count: first.count,
          by: this.expr.parseList(),
          ...(first.offset ? { offset: first.offset } : {}),
        };
        if (ts.isWord("LIMIT")) limit = this.limit();
      } else {
        limit = first;
      }
    }
    return ts.node({
      kind: "select",
      with: ctes,
      distinct,
      columns,
      groupBy,
      orderBy,
      pos,
      ...(from ? { from } : {}),
      ...(prewhere ? { prewhere } : {}),
      ...(where ? { where } : {}),
      ...(having ? { having } : {}),
      ...(limitBy ? { limitBy } : {}),
      ...(limit ? { limit } : {}),
    });
  }

  private ctes(): Cte[] {
    const ts = this.ts;
    const ctes: Cte[] = [];
    do {
      const pos = ts.peek().pos;
      if (ts.isNameLike() && ts.isWord("AS", 1) && this.expr.startsSubquery(2)) {
        const name = ts.next().text;
        ts.next();
        ctes.push(ts.node({ kind: "query", name, query: this.parenthesizedQuery(), pos }));
      } else {
        const expr = this.expr.parse();
        ts.expectWord("AS");
        const name = ts.expectName("a name for the WITH expression").text;
        ctes.push(ts.node({ kind: "expr", name, expr, pos }));
      }
    } while (ts.acceptOp(","));
    return ctes;
  }

  selectItems(): SelectItem[] {
    const items: SelectItem[] = [];
    do items.push(this.aliased());
    while (this.ts.acceptOp(","));
    return items;
  }

  /** `expr [[AS] alias]`. */
  private aliased(): SelectItem {
    const ts = this.ts;
    const pos = ts.peek().pos;
    const expr = this.expr.parse();
    const alias = this.alias();
    return ts.node({ expr, pos, ...(alias !== undefined ? { alias } : {}) });
  }

  alias(): string | undefined {
    const ts = this.ts;
    if (ts.acceptWord("AS")) return ts.expectName("an alias after AS").text;
    return ts.acceptName()?.text;
  }

  private groupBy(): Expr[] {
    this.ts.expectWord("BY");
    return this.expr.parseList();
  }

  private orderBy(): OrderItem[] {
    const ts = this.ts;
    ts.expectWord("ORDER");
    ts.expectWord("BY");
    const items: OrderItem[] = [];
    do {
      const pos = ts.peek().pos;
      const expr = this.expr.parse();
      let direction: "ASC" | "DESC" = "ASC";
      if (ts.acceptWord("DESC") || ts.acceptWord("DESCENDING")) direction = "DESC";
      else if (!ts.acceptWord("ASC")) ts.acceptWord("ASCENDING");
      let nulls: "FIRST" | "LAST" | undefined;
      if (ts.acceptWord("NULLS")) {
        if (ts.acceptWord("FIRST")) nulls = "FIRST";
        else if (ts.acceptWord("LAST")) nulls = "LAST";
        else throw ts.unexpected("FIRST or LAST after NULLS");
      }
      if (ts.isWord("COLLATE") || ts.isWord("WITH"))
        throw new TqlSyntaxError(
          `${ts.peek().text.toUpperCase()} in ORDER BY is not supported`,
          ts.peek().pos,
        );
      items.push(ts.node({ expr, direction, pos, ...(nulls ? { nulls } : {}) }));
    } while (ts.acceptOp(","));
    return items;
  }

  /** `LIMIT n`, `LIMIT n OFFSET m`, `LIMIT m, n`. */
  private limit(): Limit {
    const ts = this.ts;
    const pos = ts.expectWord("LIMIT").pos;
    const first = this.count("LIMIT");
    if (ts.acceptOp(",")) return ts.node({ count: this.count("LIMIT"), offset: first, pos });
    if (ts.acceptWord("OFFSET"))
      return ts.node({ count: first, offset: this.count("OFFSET"), pos });
    return ts.node({ count: first, pos });
  }

  private count(clause: string): string {
    const token = this.ts.peek();
    if (token.kind !== "number" || !/^\d+$/.test(token.text))
      throw this.ts.unexpected(`a whole number after ${clause}`);
    this.ts.next();
    return token.text.replace(/^0+(?=\d)/, "");
  }
}
