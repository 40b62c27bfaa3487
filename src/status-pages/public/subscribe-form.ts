import type { StatusPageData } from "../../contracts/status-page-data.js";
import { escapeHtml } from "./html.js";
import { BASE } from "./page-style.js";

// The public page's Subscribe form: a plain HTML form POST (no script), the whole page or some of
// its components; and the small pages its links answer with (check your inbox, confirm,
// unsubscribe), in the page's look.

export const SUBSCRIBE_CSS =
  `.subscribe{margin:2rem 0;padding:1.25rem;border:1px solid ${BASE.border};border-radius:10px;background:${BASE.surface}}` +
  `.subscribe label{display:block;font-weight:600;margin-bottom:.375rem}` +
  `.sub-row{display:flex;gap:.5rem;flex-wrap:wrap}` +
  `.sub-row input{flex:1 1 16rem;min-width:0;padding:.5rem .625rem;border:1px solid #9ca3af;border-radius:6px;font:inherit}` +
  `.subscribe button,.sub-page button{padding:.5rem 1rem;border:0;border-radius:6px;background:${BASE.link};color:#fff;font:inherit;font-weight:600;cursor:pointer}` +
  `.subscribe details{margin-top:.75rem}.subscribe fieldset{border:0;margin:.5rem 0 0;padding:0}` +
  `.subscribe fieldset label{font-weight:400;display:flex;gap:.5rem;align-items:center;margin:.25rem 0}` +
  `.sub-page{max-width:36rem;margin:3rem auto;padding:1.5rem;border:1px solid ${BASE.border};border-radius:10px;background:${BASE.surface}}` +
  `.sub-page .error{color:#991b1b}`;

/** The form under the page's components; `action` is the subscribe route's path. */
export function renderSubscribeForm(data: StatusPageData, action: string): string {
  const boxes = data.services.map(
    (s) =>
      `<label><input type="checkbox" name="componentIds" value="${escapeHtml(s.id)}"> ${escapeHtml(s.name)}</label>`,
  );
  const scope =
    boxes.length === 0
      ? ""
      : `<details><summary>Only some components</summary><fieldset><legend class="meta">` +
        `Leave all unticked for every component.</legend>${boxes.join("")}</fieldset></details>`;
  return (
    `<section class="subscribe" aria-labelledby="subscribe-title">` +
    `<h2 class="section-title" id="subscribe-title">Get updates by email</h2>` +
    `<form method="post" action="${escapeHtml(action)}">` +
    `<label for="subscribe-email">Email address</label>` +
    `<div class="sub-row"><input id="subscribe-email" name="email" type="email" required ` +
    `maxlength="254" autocomplete="email" placeholder="you@example.com">` +
    `<button type="submit">Subscribe</button></div>${scope}` +
    `<p class="meta">We email a link to confirm first. Every email has a one-click unsubscribe link.</p>` +
    `</form></section>`
  );
}
