import DOMPurify from "dompurify";
import { Marked } from "marked";

/*
 * A text panel's Markdown is written by any member and read by every viewer, so it is treated
 * as hostile. Two layers:
 *  1. marked escapes raw HTML (it shows as text) and writes images as links: no picture loads
 *     from elsewhere (no tracking pixels; the page's CSP would refuse other hosts anyway).
 *  2. DOMPurify keeps only the tags Markdown makes and the attributes below — no script, style,
 *     iframe, form, img, svg or math, no `on*` handler, no style, class or id attribute — and
 *     links only to http(s), mailto or a relative path; every link gets rel="noopener
 *     noreferrer", and one to another site opens in a new tab.
 */

const ALLOWED_TAGS = [
  "a",
  "p",
  "br",
  "hr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "strong",
  "em",
  "del",
  "s",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
];
const ALLOWED_ATTR = ["href", "title", "align", "start"];
/** http:, https:, mailto:, or no scheme at all (a relative path, `#part`, `?query`). */
export const SAFE_URL = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ href, text }) =>
      `<a href="${escapeHtml(href)}">${escapeHtml(text || "image")} (image)</a>`,
  },
});

let purifier: ReturnType<typeof DOMPurify> | undefined;

/** A DOMPurify of our own: its hook must not reach the app's other uses of the default one. */
function textPanelPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName !== "A") return;
    const href = node.getAttribute("href") ?? "";
    node.setAttribute("rel", "noopener noreferrer");
    if (/^https?:/i.test(href.trim())) node.setAttribute("target", "_blank");
  });
  return purifier;
}

/** HTML reduced to the text panel's allow-list, as nodes of this document. */
export function sanitizeHtml(html: string): DocumentFragment {
  return textPanelPurifier().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: SAFE_URL,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
}

/** A text panel's Markdown as sanitized nodes, ready to append. */
export function renderMarkdown(text: string): DocumentFragment {
  return sanitizeHtml(markdown.parse(text, { async: false }));
}
