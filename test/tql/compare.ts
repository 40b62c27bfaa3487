/** Row comparison helpers shared by the conformance test and the expected-file generator. */

/** Rows in a canonical order (by their JSON text), for results whose query does not order them. */
export function canonicalRows(rows: readonly unknown[][]): unknown[][] {
  return rows
    .map((row) => ({ row, key: JSON.stringify(row) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ row }) => row);
}

/** The markers of `markers` that occur anywhere in the value's JSON text. */
export function markersIn(value: unknown, markers: readonly string[]): string[] {
  const text = JSON.stringify(value);
  return markers.filter((marker) => text.includes(marker));
}
