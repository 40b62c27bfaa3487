import type { TqlResult } from "./tql-api";
import { formatCell } from "./values";

const quote = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** The result as CSV (RFC 4180): a header of column names, then one line per row. */
export function toCsv(result: TqlResult): string {
  const lines = [result.columns.map((c) => quote(c.name)).join(",")];
  for (const row of result.rows)
    lines.push(row.map((value) => (value === null ? "" : quote(formatCell(value)))).join(","));
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
