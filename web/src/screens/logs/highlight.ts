/** A piece of a message: a stretch that matches a search term, or one between matches. */
export interface TextPart {
  text: string;
  match: boolean;
}

/**
 * `text` cut into the stretches matching any of `terms` (case-insensitively, anywhere, as the
 * search matches them) and those between, in order; overlapping matches join. Rendered as text
 * nodes, so nothing in a message is ever read as markup.
 */
export function highlightParts(text: string, terms: readonly string[]): TextPart[] {
  const lower = text.toLowerCase();
  // Case folding that changes a string's length (rare: İ) would shift every index: no marks then.
  const needles = terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0);
  if (needles.length === 0 || lower.length !== text.length) return [{ text, match: false }];
  const ranges: [number, number][] = [];
  for (const needle of needles) {
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1))
      ranges.push([at, at + needle.length]);
  }
  if (ranges.length === 0) return [{ text, match: false }];
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  const parts: TextPart[] = [];
  let at = 0;
  for (const [start, end] of merged) {
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}
