// A "did you mean" hint for a mistyped name: shared by the server's validation and its contracts.
/** Levenshtein edit distance between two strings. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(
        current + 1,
        (row[j - 1] ?? 0) + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      previous = current;
    }
  }
  return row[b.length] ?? Number.POSITIVE_INFINITY;
}

/**
 * The candidate nearest to `name` for a "did you mean" hint, or undefined when none is close
 * (more than `maxDistance` edits, ignoring letter case).
 */
export function closestName(
  name: string,
  candidates: Iterable<string>,
  maxDistance = 3,
): string | undefined {
  const lower = name.toLowerCase();
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (!best || d < best.d) best = { candidate, d };
  }
  return best && best.d <= maxDistance ? best.candidate : undefined;
}
