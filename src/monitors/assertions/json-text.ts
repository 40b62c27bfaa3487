/**
 * A JSON reader that keeps each number's source text (rule 5: numbers from JSON are read as
 * text), so `1.50` stays "1.50" and a 20-digit id is not rounded. Objects are Maps, so keys such
 * as `__proto__` are plain data.
 */
export class JsonNumber {
  constructor(readonly text: string) {}
}
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | Map<string, JsonValue>;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const MAX_DEPTH = 512;

class JsonSyntaxError extends Error {}

/** Parses JSON text; returns undefined when it is not valid JSON. */
export function parseJsonText(text: string): JsonValue | undefined {
  let at = 0;
  const fail = (): never => {
    throw new JsonSyntaxError(`invalid JSON at ${at}`);
  };
  const skip = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.test(text);
    at = WHITESPACE.lastIndex;
  };
  const expect = (literal: string) => {
    if (!text.startsWith(literal, at)) fail();
    at += literal.length;
  };
  const readString = (): string => {
    // JSON.parse decodes the escapes of exactly one string token, found by scanning to its end.
    const start = at;
    at++;
    while (at < text.length) {
      const c = text.charCodeAt(at);
      if (c === 0x22) break;
      if (c === 0x5c) at++;
      else if (c < 0x20) fail();
      at++;
    }
    if (at >= text.length) fail();
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const readValue = (depth: number): JsonValue => {
    if (depth > MAX_DEPTH) fail();
    skip();
    const c = text[at];
    if (c === "{") {
      at++;
      const object = new Map<string, JsonValue>();
      skip();
      if (text[at] === "}") {
        at++;
        return object;
      }
      for (;;) {
        skip();
        if (text[at] !== '"') fail();
        const key = readString();
        skip();
        expect(":");
        object.set(key, readValue(depth + 1));
        skip();
        if (text[at] === ",") at++;
        else if (text[at] === "}") {
          at++;
          return object;
        } else fail();
      }
    }
    if (c === "[") {
      at++;
      const array: JsonValue[] = [];
      skip();
      if (text[at] === "]") {
        at++;
        return array;
      }
      for (;;) {
        array.push(readValue(depth + 1));
        skip();
        if (text[at] === ",") at++;
        else if (text[at] === "]") {
          at++;
          return array;
        } else fail();
      }
    }
    if (c === '"') return readString();
    if (c === "t") {
      expect("true");
      return true;
    }
    if (c === "f") {
      expect("false");
      return false;
    }
    if (c === "n") {
      expect("null");
      return null;
    }
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(text);
    if (!match) return fail();
    at = NUMBER.lastIndex;
    return new JsonNumber(match[0]);
  };
  try {
    const value = readValue(0);
    skip();
    return at === text.length ? value : undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** Compact JSON text of a value, numbers as they were written (rule 7: objects compare as JSON text). */
export function stringifyJsonText(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (value instanceof JsonNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(stringifyJsonText).join(",")}]`;
  const members: string[] = [];
  for (const [key, member] of value)
    members.push(`${JSON.stringify(key)}:${stringifyJsonText(member)}`);
  return `{${members.join(",")}}`;
}
