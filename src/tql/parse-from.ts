import type { ArrayJoin, FromClause, Join, JoinKind, Query, SelectItem, TableRef } from "./ast.js";
import type { ExprParser } from "./parse-expr.js";
import type { TokenStream } from "./token-stream.js";
import { TqlSyntaxError } from "./tql-errors.js";

const JOIN_KINDS = new Set(["INNER", "LEFT", "RIGHT", "FULL", "CROSS"]);
const STRICTNESS = new Set(["ANY", "ALL", "SEMI", "ANTI", "ASOF"]);

/** What the FROM clause takes from the statement parser. */
export interface FromContext {
  readonly ts: TokenStream;
  readonly expr: ExprParser;
  /** `( query )`: a subquery in FROM or a join. */
  parenthesizedQuery(): Query;
  /** The `expr [AS alias], …` list an ARRAY JOIN takes, as SELECT does. */
  selectItems(): SelectItem[];
  /** `[AS] alias`, if there is one. */
  alias(): string | undefined;
}

/** `FROM t [alias]` and what follows it: joins, comma (cross) joins and ARRAY JOINs. */
export function parseFrom(p: FromContext): FromClause {
  const { ts } = p;
  const table = parseTableRef(p);
  const joins: (Join | ArrayJoin)[] = [];
  for (;;) {
    const pos = ts.peek().pos;
    if (ts.acceptOp(",")) {
      joins.push(ts.node({ kind: "join", joinKind: "CROSS", table: parseTableRef(p), pos }));
      continue;
    }
    const arrayJoin = parseArrayJoin(p);
    if (arrayJoin) {
      joins.push(arrayJoin);
      continue;
    }
    const join = parseJoin(p);
    if (!join) return { table, joins };
    joins.push(join);
  }
}

function parseArrayJoin(p: FromContext): ArrayJoin | undefined {
  const { ts } = p;
  const pos = ts.peek().pos;
  const left = ts.isWord("LEFT") && ts.isWord("ARRAY", 1);
  if (!left && !ts.isWord("ARRAY")) return undefined;
  if (!ts.isWord("JOIN", left ? 2 : 1)) return undefined;
  ts.next();
  ts.next();
  if (left) ts.next();
  return ts.node({ kind: "arrayJoin", left, items: p.selectItems(), pos });
}

function parseJoin(p: FromContext): Join | undefined {
  const { ts } = p;
  const pos = ts.peek().pos;
  if (ts.isWord("GLOBAL")) throw new TqlSyntaxError("GLOBAL joins are not supported", pos);
  let strictness: Join["strictness"];
  let kind: JoinKind | undefined;
  for (let i = 0; i < 3; i++) {
    const token = ts.peek();
    const word = token.kind === "word" ? token.text.toUpperCase() : "";
    if (!strictness && STRICTNESS.has(word)) strictness = word as Join["strictness"];
    else if (!kind && JOIN_KINDS.has(word)) kind = word as JoinKind;
    else if (word === "OUTER" && (kind === "LEFT" || kind === "RIGHT" || kind === "FULL")) {
      // LEFT OUTER JOIN is LEFT JOIN.
    } else break;
    ts.next();
  }
  if (!ts.isWord("JOIN")) {
    if (strictness || kind) throw ts.unexpected("JOIN");
    return undefined;
  }
  ts.next();
  const table = parseTableRef(p);
  const joinKind = kind ?? "INNER";
  const base = {
    kind: "join" as const,
    joinKind,
    table,
    pos,
    ...(strictness ? { strictness } : {}),
  };
  if (ts.acceptWord("ON")) return ts.node({ ...base, on: p.expr.parse() });
  if (ts.acceptWord("USING")) {
    const parens = ts.acceptOp("(");
    const using: string[] = [];
    do using.push(ts.expectName("a column name in USING").text);
    while (ts.acceptOp(","));
    if (parens) ts.expectOp(")");
    return ts.node({ ...base, using });
  }
  if (joinKind !== "CROSS") throw ts.unexpected(`ON or USING after ${joinKind} JOIN`);
  return ts.node(base);
}

function parseTableRef(p: FromContext): TableRef {
  const { ts } = p;
  const token = ts.peek();
  const pos = token.pos;
  if (ts.isOp("(")) {
    if (!p.expr.startsSubquery()) throw ts.unexpected("a subquery");
    const query = p.parenthesizedQuery();
    return ts.node({ kind: "subquery", query, pos, ...tableAlias(p) });
  }
  const name = ts.expectName("a table name").text;
  if (ts.isOp("("))
    throw new TqlSyntaxError(
      `Table functions such as ${name}() are not allowed; query one of the TQL tables`,
      pos,
    );
  if (ts.isOp(".")) {
    const lower = name.toLowerCase();
    const message =
      lower === "system" || lower === "information_schema"
        ? `${name} tables are not accessible from TQL; query one of the TQL tables`
        : `Table names cannot be qualified with a database ('${name}.…'); use the table name alone`;
    throw new TqlSyntaxError(message, pos);
  }
  if (ts.isWord("FINAL"))
    throw new TqlSyntaxError("FINAL is not needed: TQL reads current rows already", ts.peek().pos);
  if (ts.isWord("SAMPLE")) throw new TqlSyntaxError("SAMPLE is not supported", ts.peek().pos);
  return ts.node({ kind: "table", name, pos, ...tableAlias(p) });
}

function tableAlias(p: FromContext): { alias?: string } {
  const alias = p.alias();
  return alias === undefined ? {} : { alias };
}
