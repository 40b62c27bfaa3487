/** Prints a plain-text table for a benchmark report: columns padded, a rule under the header. */
export function printTable(header: string[], body: string[][]): void {
  const all = [header, ...body];
  const widths = header.map((_, c) => Math.max(...all.map((row) => (row[c] ?? "").length)));
  const line = (row: string[]) => row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(" | ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const row of body) console.log(line(row));
  console.log("");
}
