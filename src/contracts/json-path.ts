/**
 * The JSON path syntax monitors accept, parsed without reading any document: the input schemas
 * (contracts/monitors.ts) refuse a bad path at save time, the runner resolves a parsed one.
 */

/** One step of a path: a member name or an array index. */
export type PathSegment = { key: string } | { index: number };

export type ParsedPath = { ok: true; segments: PathSegment[] } | { ok: false; message: string };

const NAME_END = /[.[\]]/;
/** A bracketed quoted name, read as a whole so that `.`, `:`, `,` and `]` inside the quotes are data. */
const QUOTED_NAME = /\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/y;

/**
 * Parses the supported subset: `$.a.b`, `$.items[0].id`, `$['odd.key']`, and the same without
 * the leading `$.`. Wildcards, filters, slices, unions and recursive descent are refused with a
 * message that says which.
 */
export function parseJsonPath(input: string): ParsedPath {
  const path = input.trim();
  if (path === "") return { ok: false, message: "the JSON path is empty" };
  const bad = (message: string): ParsedPath => ({ ok: false, message: `${message} in '${path}'` });
  const segments: PathSegment[] = [];
  let at = 0;
  if (path[0] === "$") {
    at = 1;
  } else if (path[0] !== "[") {
    at = -1; // a bare first name, as if after "$."
  }
  while (at < path.length) {
    let name: string | undefined;
    if (at === -1 || path[at] === ".") {
      const start = at + 1;
      if (path[start] === ".")
        return bad(
          at === -1
            ? "a member name is missing at position 1"
            : "recursive descent (..) is not supported",
        );
      if (path[start] === "*") return bad("wildcards (*) are not supported");
      const rest = path.slice(start);
      const end = rest.search(NAME_END);
      name = end === -1 ? rest : rest.slice(0, end);
      if (name === "") return bad(`a member name is missing at position ${start + 1}`);
      if (name.includes("*")) return bad("wildcards (*) are not supported");
      segments.push({ key: name });
      at = start + name.length;
      continue;
    }
    if (path[at] !== "[") return bad(`unexpected '${path[at]}' at position ${at + 1}`);
    QUOTED_NAME.lastIndex = at;
    const quoted = QUOTED_NAME.exec(path);
    if (quoted) {
      segments.push({ key: quoted[1] ?? quoted[2] ?? "" });
      at = QUOTED_NAME.lastIndex;
      continue;
    }
    const close = path.indexOf("]", at);
    if (close === -1) return bad("a '[' is not closed");
    const inner = path.slice(at + 1, close).trim();
    at = close + 1;
    if (inner === "*") return bad("wildcards ([*]) are not supported");
    if (inner.startsWith("?")) return bad("filters ([?(…)]) are not supported");
    if (inner.includes(":")) return bad("array slices are not supported");
    if (inner.includes(",")) {
      return bad("unions ([a,b]) are not supported");
    } else if (/^\d{1,9}$/.test(inner)) {
      segments.push({ index: Number(inner) });
    } else if (/^-\d+$/.test(inner)) {
      return bad("negative indexes are not supported");
    } else {
      return bad(`'[${inner}]' is not an array index or a quoted name`);
    }
  }
  return { ok: true, segments };
}
