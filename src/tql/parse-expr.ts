import { INTERVAL_UNITS } from "../contracts/tql-dialect.js";
import type { BinaryOp, Expr, Query, TypeNode } from "./ast.js";
import { intervalUnitAt, parseCall } from "./parse-call.js";
import { parseMacro, parsePlaceholder } from "./parse-placeholder.js";
import { parseType, parseTypeText } from "./parse-type.js";
import { isReserved, type TokenStream } from "./token-stream.js";
import { TqlSyntaxError } from "./tql-errors.js";

/** Binding powers, lowest first; ClickHouse's operator precedence. */
const BP = {
  ternary: 1,
  or: 2,
  and: 3,
  not: 4,
  comparison: 5,
  additive: 6,
  multiplicative: 7,
  unary: 8,
} as const;

const COMPARISON: Readonly<Record<string, BinaryOp>> = {
  "=": "=",
  "==": "=",
  "!=": "!=",
  "<>": "!=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
};
const ADDITIVE: Readonly<Record<string, BinaryOp>> = { "+": "+", "-": "-", "||": "||" };
const MULTIPLICATIVE: Readonly<Record<string, BinaryOp>> = { "*": "*", "/": "/", "%": "%" };

/** Predicates that `NOT` may precede: `x NOT IN …`, `NOT LIKE`, `NOT ILIKE`, `NOT BETWEEN`. */
const NEGATABLE = new Set(["IN", "LIKE", "ILIKE", "BETWEEN"]);

/** Expression parsing: a Pratt parser over the shared token stream (calls: parse-call.ts, types: parse-type.ts). */
export class ExprParser {
  constructor(
    private readonly ts: TokenStream,
    /** Parses `( query )` at the current token (for subqueries inside expressions). */
    private readonly parseSubquery: () => Query,
  ) {}

  /** True when a subquery starts at the current `(`. */
  startsSubquery(ahead = 0): boolean {
    return (
      this.ts.isOp("(", ahead) &&
      (this.ts.isWord("SELECT", ahead + 1) || this.ts.isWord("WITH", ahead + 1))
    );
  }

  parse(minBp = 0): Expr {
    const start = this.ts.peek().pos;
    return this.ts.nested(start, () => {
      let left = this.prefix();
      // Each step of a left-associative chain (a + b + c …) nests the tree one level deeper.
      for (let steps = 0; ; steps++) {
        const next = this.infix(left, minBp);
        if (!next) return left;
        this.ts.deepen(steps, next.pos);
        left = next;
      }
    });
  }

  parseList(): Expr[] {
    const items = [this.parse()];
    while (this.ts.acceptOp(",")) items.push(this.parse());
    return items;
  }

  private prefix(): Expr {
    const ts = this.ts;
    const token = ts.peek();
    const pos = token.pos;
    if (token.kind === "number") {
      ts.next();
      return this.postfix(ts.node({ kind: "literal", type: "number", value: token.text, pos }));
    }
    if (token.kind === "string") {
      ts.next();
      return this.postfix(ts.node({ kind: "literal", type: "string", value: token.text, pos }));
    }
    if (token.kind === "op") {
      if (token.text === "-") {
        ts.next();
        // `-1` is a negative literal (Int8 in ClickHouse); `-(1)` and `-x` negate.
        const number = ts.peek();
        if (number.kind === "number") {
          ts.next();
          return this.postfix(
            ts.node({ kind: "literal", type: "number", value: `-${number.text}`, pos }),
          );
        }
        const operand = this.parse(BP.unary);
        return ts.node({ kind: "unary", op: "-", operand, pos });
      }
      if (token.text === "(") return this.postfix(this.parenthesized());
      if (token.text === "[") {
        ts.next();
        const items = ts.isOp("]") ? [] : this.parseList();
        ts.expectOp("]");
        return this.postfix(ts.node({ kind: "array", items, pos }));
      }
      if (token.text === "*") {
        ts.next();
        return ts.node({ kind: "star", pos, ...this.starExcept() });
      }
      if (token.text === "{") return this.postfix(parsePlaceholder(ts));
      throw ts.unexpected("an expression");
    }
    if (token.kind === "macro") return this.postfix(parseMacro(ts, () => this.parse()));
    if (token.kind === "quoted") return this.postfix(this.name());
    if (token.kind === "word") return this.postfix(this.word());
    throw ts.unexpected("an expression");
  }

  private word(): Expr {
    const ts = this.ts;
    const token = ts.peek();
    const pos = token.pos;
    const upper = token.text.toUpperCase();
    if (upper === "NULL") {
      ts.next();
      return ts.node({ kind: "literal", type: "null", value: null, pos });
    }
    if (upper === "TRUE" || upper === "FALSE") {
      ts.next();
      return ts.node({ kind: "literal", type: "bool", value: upper === "TRUE", pos });
    }
    if (upper === "NOT") {
      ts.next();
      const operand = this.parse(BP.not);
      return ts.node({ kind: "unary", op: "NOT", operand, pos });
    }
    if (upper === "CASE") return this.caseExpr();
    if (upper === "INTERVAL") return this.interval();
    if (upper === "CAST" && ts.isOp("(", 1)) return this.cast();
    if (upper === "EXISTS" && this.startsSubquery(1)) {
      ts.next();
      return ts.node({ kind: "exists", query: this.parseSubquery(), pos });
    }
    if (ts.isOp("(", 1)) return parseCall(ts, (minBp) => this.parse(minBp));
    if (isReserved(token.text)) throw ts.unexpected("an expression");
    return this.name();
  }

  /** `name`, `table.name`, `table.column.subcolumn…` or `table.*`. */
  private name(): Expr {
    const ts = this.ts;
    const first = ts.next();
    const parts = [first.text];
    while (ts.isOp(".") && ts.isNameLike(1)) {
      ts.next();
      parts.push(ts.next().text);
    }
    if (parts.length === 1 && ts.isOp(".") && ts.isOp("*", 1)) {
      ts.next();
      ts.next();
      return ts.node({ kind: "star", table: first.text, pos: first.pos, ...this.starExcept() });
    }
    const [table, name, ...path] = parts;
    if (name === undefined) return ts.node({ kind: "column", name: first.text, pos: first.pos });
    return ts.node({
      kind: "column",
      table: table as string,
      name,
      pos: first.pos,
      ...(path.length > 0 ? { path } : {}),
    });
  }

  /** `* EXCEPT (a, b)` or `* EXCEPT a`; a following SELECT would be the set operation. */
  private starExcept(): { except?: string[] } {
    const ts = this.ts;
    if (
      !ts.isWord("EXCEPT") ||
      ts.isWord("SELECT", 1) ||
      (ts.isOp("(", 1) && ts.isWord("SELECT", 2))
    )
      return {};
    ts.next();
    const parens = ts.acceptOp("(");
    const except: string[] = [];
    do except.push(ts.expectName("a column name after EXCEPT").text);
    while (parens && ts.acceptOp(","));
    if (parens) ts.expectOp(")");
    return { except };
  }

  /** `( … )`: a subquery, a tuple, or a parenthesized expression. */
  private parenthesized(): Expr {
    const ts = this.ts;
    const pos = ts.peek().pos;
    if (this.startsSubquery())
      return ts.node({ kind: "subquery", query: this.parseSubquery(), pos });
    ts.next();
    if (ts.acceptOp(")")) return ts.node({ kind: "tuple", items: [], pos });
    const items = this.parseList();
    ts.expectOp(")");
    if (items.length === 1) return items[0] as Expr;
    return ts.node({ kind: "tuple", items, pos });
  }

  private caseExpr(): Expr {
    const ts = this.ts;
    const pos = ts.next().pos;
    const operand = ts.isWord("WHEN") ? undefined : this.parse();
    const whens: { condition: Expr; result: Expr }[] = [];
    while (ts.acceptWord("WHEN")) {
      const condition = this.parse();
      ts.expectWord("THEN");
      whens.push({ condition, result: this.parse() });
    }
    if (whens.length === 0) throw ts.unexpected("WHEN");
    const otherwise = ts.acceptWord("ELSE") ? this.parse() : undefined;
    ts.expectWord("END");
    return ts.node({
      kind: "case",
      whens,
      pos,
      ...(operand ? { operand } : {}),
      ...(otherwise ? { else: otherwise } : {}),
    });
  }

  private interval(): Expr {
    const ts = this.ts;
    const pos = ts.next().pos;
    const value = this.parse(BP.unary);
    const unit = intervalUnitAt(ts, 0);
    if (!unit) throw ts.unexpected(`an interval unit (${INTERVAL_UNITS.join(", ")})`);
    ts.next();
    return ts.node({ kind: "interval", value, unit, pos });
  }

  /** `CAST(x AS T)` and `CAST(x, 'T')`. */
  private cast(): Expr {
    const ts = this.ts;
    const pos = ts.next().pos;
    ts.expectOp("(");
    const expr = this.parse();
    let type: TypeNode;
    if (ts.acceptWord("AS")) {
      type = parseType(ts);
    } else {
      ts.expectOp(",");
      const literal = ts.peek();
      if (literal.kind !== "string") throw ts.unexpected("a type name in quotes");
      ts.next();
      type = parseTypeText(literal.text, literal.pos);
    }
    ts.expectOp(")");
    return ts.node({ kind: "cast", expr, type, pos });
  }

  /** `[index]`, `.1` and `::Type` bind tighter than any operator. */
  private postfix(expr: Expr): Expr {
    const ts = this.ts;
    let result = expr;
    for (;;) {
      const pos = ts.peek().pos;
      if (ts.acceptOp("[")) {
        const index = this.parse();
        ts.expectOp("]");
        result = ts.node({ kind: "index", target: result, index, pos });
      } else if (ts.isOp(".") && ts.peek(1).kind === "number" && /^\d+$/.test(ts.peek(1).text)) {
        ts.next();
        const index = Number(ts.next().text);
        result = ts.node({ kind: "tupleAccess", target: result, index, pos });
      } else if (ts.acceptOp("::")) {
        result = ts.node({ kind: "cast", expr: result, type: parseType(ts), pos });
      } else {
        return result;
      }
    }
  }

  /** One infix step, or undefined when the next token does not continue at `minBp`. */
  private infix(left: Expr, minBp: number): Expr | undefined {
    const ts = this.ts;
    const token = ts.peek();
    const pos = token.pos;
    const text =
      token.kind === "op" ? token.text : token.kind === "word" ? token.text.toUpperCase() : "";
    if (token.kind === "op" && text === "?" && minBp < BP.ternary) {
      ts.next();
      const then = this.parse(BP.ternary);
      ts.expectOp(":");
      const otherwise = this.parse(BP.ternary - 1);
      return ts.node({ kind: "ternary", condition: left, then, else: otherwise, pos });
    }
    if (token.kind === "word" && (text === "OR" || text === "AND")) {
      const bp = text === "OR" ? BP.or : BP.and;
      if (minBp >= bp) return undefined;
      const operands = [left];
      while (ts.acceptWord(text)) operands.push(this.parse(bp));
      return ts.node({ kind: "logical", op: text, operands, pos });
    }
    if (minBp >= BP.comparison) {
      return this.arithmetic(left, minBp);
    }
    const op = token.kind === "op" ? COMPARISON[text] : undefined;
    if (op) {
      ts.next();
      const right = this.parse(BP.comparison);
      return ts.node({ kind: "binary", op, left, right, pos });
    }
    if (token.kind === "word") {
      const negated = text === "NOT" && NEGATABLE.has(ts.peek(1).text.toUpperCase());
      const keyword = negated ? ts.peek(1).text.toUpperCase() : text;
      if (keyword === "IS") return this.isNull(left, pos);
      if (!NEGATABLE.has(keyword)) return this.arithmetic(left, minBp);
      if (negated) ts.next();
      ts.next();
      if (keyword === "IN") return this.inList(left, negated, pos);
      if (keyword === "BETWEEN") {
        const low = this.parse(BP.comparison);
        ts.expectWord("AND");
        const high = this.parse(BP.comparison);
        return ts.node({ kind: "between", expr: left, not: negated, low, high, pos });
      }
      const likeOp = `${negated ? "NOT " : ""}${keyword}` as BinaryOp;
      const right = this.parse(BP.comparison);
      return ts.node({ kind: "binary", op: likeOp, left, right, pos });
    }
    return this.arithmetic(left, minBp);
  }

  private arithmetic(left: Expr, minBp: number): Expr | undefined {
    const ts = this.ts;
    const token = ts.peek();
    if (token.kind !== "op") return undefined;
    const additive = ADDITIVE[token.text];
    const multiplicative = MULTIPLICATIVE[token.text];
    const op = additive ?? multiplicative;
    const bp = additive ? BP.additive : BP.multiplicative;
    if (!op || minBp >= bp) return undefined;
    ts.next();
    const right = this.parse(bp);
    return ts.node({ kind: "binary", op, left, right, pos: token.pos });
  }

  private isNull(left: Expr, pos: number): Expr {
    const ts = this.ts;
    ts.next();
    const not = ts.acceptWord("NOT");
    ts.expectWord("NULL");
    return ts.node({ kind: "isNull", expr: left, not, pos });
  }

  /**
   * `IN (a, b)`, `IN (SELECT …)`, `IN {ids:Array(String)}`. A bare name after IN (a table in
   * ClickHouse) is refused.
   */
  private inList(left: Expr, not: boolean, pos: number): Expr {
    const ts = this.ts;
    if (this.startsSubquery())
      return ts.node({ kind: "in", expr: left, not, list: this.parseSubquery(), pos });
    if (ts.isOp("{")) {
      const list = parsePlaceholder(ts);
      if (!list.type.array)
        throw new TqlSyntaxError(
          `IN takes a list, a subquery or an Array parameter: {${list.name}:Array(…)}`,
          list.pos,
        );
      return ts.node({ kind: "in", expr: left, not, list, pos });
    }
    if (!ts.isOp("(") && !ts.isOp("["))
      throw ts.unexpected("a parenthesized list or subquery after IN");
    const close = ts.next().text === "(" ? ")" : "]";
    const list = ts.isOp(close) ? [] : this.parseList();
    ts.expectOp(close);
    return ts.node({ kind: "in", expr: left, not, list, pos });
  }
}
