import type { TqlPosition } from "../contracts/tql.js";
import { DomainError } from "../lib/domain-errors.js";

/**
 * A query TQL refuses: a syntax error, an unknown table, column or function, or a construct
 * that is not allowed. `offset` points into the query text; `locate()` turns it into the
 * `position: {line, column}` the problem document carries.
 */
export class TqlError extends DomainError {
  readonly offset: number | undefined;
  /** The input field the problem names: `query`, or `parameters.<name>` for a placeholder's value. */
  readonly field: string;
  override readonly extensions: Readonly<Record<string, unknown>>;

  constructor(message: string, offset?: number, position?: TqlPosition, field = "query") {
    super("invalid_input", message, [{ field, message }]);
    this.offset = offset;
    this.field = field;
    this.extensions = position ? { position } : {};
  }

  /** The same error with its position as line and column of `text`. */
  locate(text: string): TqlError {
    if (this.offset === undefined) return this;
    return new TqlError(this.message, this.offset, lineColumnOf(text, this.offset), this.field);
  }
}

/** The query's text cannot be read: a lexer or parser error. */
export class TqlSyntaxError extends TqlError {}

/** Converts an offset into the 1-based line and column users see in editors. */
export function lineColumnOf(text: string, offset: number): TqlPosition {
  let line = 1;
  let lineStart = 0;
  const limit = Math.min(offset, text.length);
  for (let i = 0; i < limit; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: limit - lineStart + 1 };
}
