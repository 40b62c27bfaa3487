import { escapedText } from "../escaped-text.js";
import type { QueryParams } from "../executor.js";

/** A single-quoted SQL string literal: only `\` and `'` can end it, both escaped. */
export function stringLiteral(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

const NAME = /^\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:/;

/** The `{name:Type}` placeholders of a statement, outside its quoted strings and identifiers. */
export function placeholderNames(sql: string): Set<string> {
  const names = new Set<string>();
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i] as string;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) {
        if (sql[i + 1] === quote) i++;
        else quote = undefined;
      }
    } else if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === "{") {
      const name = NAME.exec(sql.slice(i, i + 200))?.[1];
      if (name) names.add(name);
    }
  }
  return names;
}

function elementLiteral(value: unknown): string | undefined {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return String(value);
  return undefined;
}

/** A value as the text the engine parses as the placeholder's type; undefined if unsupported. */
function parameterText(value: unknown): string | undefined {
  if (typeof value === "string") return escapedText(value);
  if (Array.isArray(value)) {
    const items = value.map(elementLiteral);
    return items.every((item) => item !== undefined) ? `[${items.join(",")}]` : undefined;
  }
  return elementLiteral(value);
}

/**
 * The `SET param_…` statement giving a statement its `{name:Type}` values in the session itself,
 * one statement for all of them (each statement costs the engine ~0.1 ms of parsing and setup).
 *
 * chDB serializes every bound (`queryBind*`) query process-wide, because its C API's parameter
 * state is not per connection, so one long parameterized TQL query would hold every other
 * parameterized read. Session parameters are plain SQL on the statement's own session, and the
 * engine still substitutes them by type in the parsed query (values never become SQL text).
 * Session parameters outlive their statement, so a placeholder without a value is refused here
 * (the engine would take the one an earlier statement left). Undefined when a value is of a kind
 * not encoded here: the caller binds those instead. `settings` (`name = value`, trusted text) join
 * the same SET.
 */
export function sessionParams(
  sql: string,
  params: QueryParams,
  settings: readonly string[] = [],
): string | undefined {
  for (const name of placeholderNames(sql))
    if (!Object.hasOwn(params, name))
      throw new Error(`The statement names the placeholder {${name}:…} without a value`);
  const assignments = [...settings];
  for (const [name, value] of Object.entries(params)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
    const text = parameterText(value);
    if (text === undefined) return undefined;
    assignments.push(`param_${name} = ${stringLiteral(text)}`);
  }
  return assignments.length > 0 ? `SET ${assignments.join(", ")}; ` : "";
}
