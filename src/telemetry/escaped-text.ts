/** Backslash escapes of ClickHouse's Escaped text format (TabSeparated fields, `param_` values). */
export const ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
  "\0": "\\0",
  "\b": "\\b",
  "\f": "\\f",
};

const ESCAPED_CHARS = /[\\\t\n\r\0\b\f]/g;

/** A string as an Escaped-format field: it holds no raw tab, newline or backslash. */
export const escapedText = (value: string): string =>
  value.replace(ESCAPED_CHARS, (c) => ESCAPES[c] ?? c);
