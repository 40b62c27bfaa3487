import { escapeHtml } from "./html.js";
import { PAGE_CSS } from "./page-style.js";
import { SUBSCRIBE_CSS } from "./subscribe-form.js";

// The small server-rendered pages of subscriptions: the answer to the Subscribe form, the
// confirmation and unsubscribe links (a GET shows one button, the POST acts, so a mail scanner
// following links changes nothing), and what a refused or unknown link says.

/** Sent with every one of these pages: no script; forms post to this server only. */
export const SUBSCRIBE_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export interface SubscribePageContent {
  /** The status page's title (the heading's context), or null when the page is unknown. */
  pageTitle: string | null;
  /** Its public path, for the "back" link. */
  pagePath: string | null;
  heading: string;
  message: string;
  /** A form with one button (method POST to `action`). */
  button?: { action: string; label: string };
  /** The message is a refusal (shown in the error color). */
  error?: boolean;
}

export function renderSubscribePage(content: SubscribePageContent): string {
  const title = content.pageTitle ? `${content.heading} — ${content.pageTitle}` : content.heading;
  const button = content.button
    ? `<form method="post" action="${escapeHtml(content.button.action)}">` +
      `<button type="submit">${escapeHtml(content.button.label)}</button></form>`
    : "";
  const back = content.pagePath
    ? `<p><a href="${escapeHtml(content.pagePath)}">Back to ${escapeHtml(content.pageTitle ?? "the status page")}</a></p>`
    : "";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}${SUBSCRIBE_CSS}</style>
</head>
<body>
<main id="main" class="sub-page">
${content.pageTitle ? `<p class="meta">${escapeHtml(content.pageTitle)}</p>` : ""}
<h1>${escapeHtml(content.heading)}</h1>
<p${content.error ? ' class="error" role="alert"' : ""}>${escapeHtml(content.message)}</p>
${button}
${back}
</main>
</body>
</html>
`;
}
