import { TqlSyntaxError } from "./tql-errors.js";

export type TokenKind = "word" | "quoted" | "number" | "string" | "op" | "macro" | "eof";

export interface Token {
  readonly kind: TokenKind;
  /**
   * word: as written; quoted: the identifier; number: canonical text; string: unescaped value;
   * op: the operator; macro: `$` and its name (`$__timeFilter`).
   */
  readonly text: string;
  /** Offset of the token's first character in the query. */
  readonly pos: number;
}

/** Operators, longest first so that `<=` wins over `<`. */
const OPERATORS = [
  "->",
  "::",
  "<=",
  ">=",
  "!=",
  "<>",
  "==",
  "||",
  "(",
  ")",
  "[",
  "]",
  ",",
  ".",
  ";",
  "+",
  "-",
  "*",
  "/",
  "%",
  "=",
  "<",
  ">",
  "?",
  ":",
  // A bound parameter: {name:Type}.
  "{",
  "}",
] as const;

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  a: "\u0007",
  "0": "\0",
  e: "\u001b",
  N: "",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "`": "`",
};

const WORD_START = /[A-Za-z_\u0080-\uFFFF]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uFFFF]/;
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const HEX = /^0[xX][0-9A-Fa-f]+/;
const BINARY = /^0[bB][01]+/;

/**
 * Splits a query into tokens. Comments (`--` to end of line, `/* … *\/`) and whitespace are
 * dropped. Strings are single-quoted with ClickHouse escapes; identifiers may be quoted with
 * backticks or double quotes.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || ch === "\f" || ch === "\v") {
      i++;
    } else if (text.startsWith("--", i)) {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end + 1;
    } else if (text.startsWith("/*", i)) {
      i = skipBlockComment(text, i);
    } else if (ch === "'") {
      const { value, end } = readQuoted(text, i, "'");
      tokens.push({ kind: "string", text: value, pos: i });
      i = end;
    } else if (ch === "`" || ch === '"') {
      const { value, end } = readQuoted(text, i, ch);
      if (value.length === 0) throw new TqlSyntaxError("Empty quoted identifier", i);
      tokens.push({ kind: "quoted", text: value, pos: i });
      i = end;
    } else if (
      /\d/.test(ch) ||
      (ch === "." && /\d/.test(text[i + 1] ?? "") && !followsOperand(tokens))
    ) {
      const { value, end } = readNumber(text, i);
      tokens.push({ kind: "number", text: value, pos: i });
      i = end;
    } else if (ch === "$" && WORD_START.test(text[i + 1] ?? "")) {
      // A macro such as $__timeFilter; the parser expands the known ones and refuses the rest.
      let end = i + 2;
      while (end < text.length && WORD_PART.test(text[end] as string)) end++;
      tokens.push({ kind: "macro", text: text.slice(i, end), pos: i });
      i = end;
    } else if (WORD_START.test(ch)) {
      let end = i + 1;
      while (end < text.length && WORD_PART.test(text[end] as string)) end++;
      tokens.push({ kind: "word", text: text.slice(i, end), pos: i });
      i = end;
    } else {
      const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
      if (!op) throw new TqlSyntaxError(`Unexpected character '${ch}'`, i);
      tokens.push({ kind: "op", text: op, pos: i });
      i += op.length;
    }
  }
  tokens.push({ kind: "eof", text: "", pos: text.length });
  return tokens;
}

/** True when `.` at `offset` directly follows a name or bracket: `t.1` is tuple access, not `t 0.1`. */
function followsOperand(tokens: readonly Token[]): boolean {
  const last = tokens.at(-1);
  if (!last) return false;
  if (last.kind === "word" || last.kind === "quoted") return true;
  return last.kind === "op" && (last.text === ")" || last.text === "]");
}

function skipBlockComment(text: string, start: number): number {
  // ClickHouse nests block comments.
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text.startsWith("/*", i)) {
      depth++;
      i += 2;
    } else if (text.startsWith("*/", i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  throw new TqlSyntaxError("Unterminated comment", start);
}

function readQuoted(text: string, start: number, quote: string): { value: string; end: number } {
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === quote) {
      if (text[i + 1] === quote) {
        value += quote;
        i += 2;
        continue;
      }
      return { value, end: i + 1 };
    }
    if (ch === "\\") {
      const next = text[i + 1];
      if (next === undefined) break;
      if (next === "x" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 2, i + 4))) {
        value += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 4), 16));
        i += 4;
        continue;
      }
      // ClickHouse keeps the backslash of an escape it does not know: '\%' stays two characters,
      // which is how LIKE patterns match a literal % or _.
      value += SIMPLE_ESCAPES[next] ?? `\\${next}`;
      i += 2;
      continue;
    }
    value += ch;
    i++;
  }
  const what = quote === "'" ? "string" : "quoted identifier";
  throw new TqlSyntaxError(`Unterminated ${what}`, start);
}

/**
 * Reads a number and returns its canonical text: decimal literals as written (digits, point,
 * exponent), hexadecimal and binary converted to decimal. The printer emits only this text,
 * so a number can never carry anything but digits, `.`, `e` and a sign.
 */
function readNumber(text: string, start: number): { value: string; end: number } {
  const rest = text.slice(start);
  const radix = HEX.exec(rest) ?? BINARY.exec(rest);
  const match = radix ?? DECIMAL.exec(rest);
  if (!match) throw new TqlSyntaxError("Malformed number", start);
  const end = start + match[0].length;
  if (WORD_PART.test(text[end] ?? "")) throw new TqlSyntaxError("Malformed number", start);
  if (radix) {
    const digits = match[0].slice(2);
    const base = match[0][1]?.toLowerCase() === "x" ? 16n : 2n;
    let value = 0n;
    for (const digit of digits) value = value * base + BigInt(Number.parseInt(digit, 16));
    return { value: value.toString(), end };
  }
  const literal = match[0];
  if (!Number.isFinite(Number(literal)))
    throw new TqlSyntaxError("Number out of range (larger than a 64-bit float)", start);
  return { value: literal.startsWith(".") ? `0${literal}` : literal, end };
}
