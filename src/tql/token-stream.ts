import type { Token } from "./lexer.js";
import { TqlSyntaxError } from "./tql-errors.js";

/** Caps that keep a hostile query from exhausting the stack or the heap while it is parsed. */
export interface ParseLimits {
  /** Deepest nesting of expressions and subqueries. */
  maxDepth: number;
  /** Most syntax-tree nodes in one query. */
  maxNodes: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxDepth: 128, maxNodes: 20_000 };

/**
 * Words that end an expression or a clause; they cannot be implicit aliases. Everything else
 * (`timestamp`, `status`, `level`, `value`, …) is an ordinary name.
 */
const RESERVED = new Set([
  "ALL",
  "AND",
  "ANTI",
  "ANY",
  "ARRAY",
  "AS",
  "ASC",
  "ASCENDING",
  "ASOF",
  "BETWEEN",
  "BY",
  "CASE",
  "CROSS",
  "DESC",
  "DESCENDING",
  "DISTINCT",
  "ELSE",
  "END",
  "EXCEPT",
  "FINAL",
  "FORMAT",
  "FROM",
  "FULL",
  "GLOBAL",
  "GROUP",
  "HAVING",
  "ILIKE",
  "IN",
  "INNER",
  "INTERSECT",
  "INTERVAL",
  "INTO",
  "IS",
  "JOIN",
  "LEFT",
  "LIKE",
  "LIMIT",
  "NOT",
  "NULLS",
  "OFFSET",
  "ON",
  "OR",
  "ORDER",
  "OUTER",
  "PREWHERE",
  "QUALIFY",
  "RIGHT",
  "SAMPLE",
  "SELECT",
  "SEMI",
  "SETTINGS",
  "THEN",
  "UNION",
  "USING",
  "WHEN",
  "WHERE",
  "WINDOW",
  "WITH",
]);

/** The reserved words, upper case and sorted (the editor highlights and completes them). */
export function reservedWords(): string[] {
  return [...RESERVED].sort();
}

export function isReserved(word: string): boolean {
  return RESERVED.has(word.toUpperCase());
}

/** Cursor over the tokens, with the nesting and size accounting every parse step shares. */
export class TokenStream {
  private index = 0;
  private depth = 0;
  private nodes = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly limits: ParseLimits,
  ) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)] as Token;
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== "eof") this.index++;
    return token;
  }

  /** True when the token `ahead` is the keyword `word` (case-insensitive, unquoted). */
  isWord(word: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === "word" && token.text.toUpperCase() === word;
  }

  isOp(op: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === "op" && token.text === op;
  }

  /** Consumes the keyword when it is next. */
  acceptWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.index++;
    return true;
  }

  acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.index++;
    return true;
  }

  expectWord(word: string): Token {
    if (!this.isWord(word)) throw this.unexpected(word);
    return this.next();
  }

  expectOp(op: string): Token {
    if (!this.isOp(op)) throw this.unexpected(`'${op}'`);
    return this.next();
  }

  /** True when the token `ahead` is a word or a quoted identifier (a keyword included). */
  isNameLike(ahead = 0): boolean {
    const { kind } = this.peek(ahead);
    return kind === "word" || kind === "quoted";
  }

  /** Consumes a name when it is next: an unquoted word that is not a keyword, or any quoted identifier. */
  acceptName(): Token | undefined {
    const token = this.peek();
    if (token.kind === "quoted" || (token.kind === "word" && !isReserved(token.text)))
      return this.next();
    return undefined;
  }

  expectName(what: string): Token {
    const token = this.acceptName();
    if (!token) throw this.unexpected(what);
    return token;
  }

  /** An error at the current token: "Expected X but found Y". */
  unexpected(expected: string): TqlSyntaxError {
    const token = this.peek();
    return new TqlSyntaxError(`Expected ${expected} but found ${describe(token)}`, token.pos);
  }

  /** Runs one nested parse step, refusing queries nested deeper than the limit. */
  nested<T>(pos: number, parse: () => T): T {
    if (++this.depth > this.limits.maxDepth)
      throw new TqlSyntaxError(
        `The query is nested too deeply (more than ${this.limits.maxDepth} levels)`,
        pos,
      );
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  /** Refuses an operator chain that, on top of the current nesting, would exceed the depth limit. */
  deepen(extraLevels: number, pos: number): void {
    if (this.depth + extraLevels > this.limits.maxDepth)
      throw new TqlSyntaxError(
        `The query is nested too deeply (more than ${this.limits.maxDepth} levels); an operator chain this long should be an IN list or an aggregate`,
        pos,
      );
  }

  /** Counts one syntax-tree node, refusing queries larger than the limit. */
  node<T>(node: T & { pos: number }): T {
    if (++this.nodes > this.limits.maxNodes)
      throw new TqlSyntaxError(
        `The query is too large (more than ${this.limits.maxNodes} syntax elements); use fewer terms or a subquery`,
        node.pos,
      );
    return node;
  }
}

export function describe(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "the end of the query";
    case "string":
      return "a string";
    case "number":
      return `'${token.text}'`;
    case "quoted":
      return `identifier '${token.text}'`;
    default:
      return `'${token.text}'`;
  }
}
