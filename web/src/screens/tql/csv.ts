import type { TqlResult } from "./tql-api";
import { formatCell, isNumericType } from "./values";

const quote = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * A text a spreadsheet would run as a formula (`=HYPERLINK(…)` in a log body sent by anyone's
 * browser) gets a leading apostrophe, as OWASP advises; numeric columns keep their minus signs.
 */
const inert = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** The result as CSV (RFC 4180): a header of column names, then one line per row. */
export function toCsv(result: TqlResult): string {
  const numeric = result.columns.map((c) => isNumericType(c.type));
  const cell = (value: unknown, index: number) => {
    if (value === null) return "";
    const text = formatCell(value);
    return quote(numeric[index] ? text : inert(text));
  };
  const lines = [result.columns.map((c) => quote(inert(c.name))).join(",")];
  for (const row of result.rows) lines.push(row.map(cell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** Offers the result as a file download. */
export function downloadCsv(result: TqlResult, name = "tql-result.csv"): void {
  const url = URL.createObjectURL(new Blob([toCsv(result)], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
