import type { TypeArg, TypeNode } from "./ast.js";
import { tokenize } from "./lexer.js";
import { TokenStream } from "./token-stream.js";
import { TqlSyntaxError } from "./tql-errors.js";

/** A data type: `Name` or `Name(arg, …)` where an argument is a type, number or string. */
export function parseType(ts: TokenStream): TypeNode {
  if (!ts.isNameLike()) throw ts.unexpected("a type name");
  const token = ts.next();
  const args: TypeArg[] = [];
  if (ts.acceptOp("(")) {
    if (!ts.isOp(")")) {
      do args.push(typeArgument(ts));
      while (ts.acceptOp(","));
    }
    ts.expectOp(")");
  }
  return ts.node({ name: token.text, args, pos: token.pos });
}

function typeArgument(ts: TokenStream): TypeArg {
  const token = ts.peek();
  if (token.kind === "number") {
    ts.next();
    return { kind: "number", value: token.text };
  }
  if (token.kind === "string") {
    ts.next();
    return { kind: "string", value: token.text };
  }
  // Tuple(name Type) names its elements.
  if (ts.isNameLike() && ts.peek(1).kind === "word") {
    ts.next();
    return { kind: "type", field: token.text, type: parseType(ts) };
  }
  return { kind: "type", type: parseType(ts) };
}

/** Parses the type inside `CAST(x, 'Nullable(String)')` with the same grammar as `AS Type`. */
export function parseTypeText(text: string, pos: number): TypeNode {
  const notAType = () => new TqlSyntaxError(`'${text}' is not a type name`, pos);
  try {
    const stream = new TokenStream(tokenize(text), { maxDepth: 16, maxNodes: 256 });
    const type = parseType(stream);
    if (stream.peek().kind !== "eof") throw notAType();
    return { ...type, pos };
  } catch (error) {
    if (error instanceof TqlSyntaxError) throw notAType();
    throw error;
  }
}
