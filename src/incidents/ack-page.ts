import { escapeHtml } from "../status-pages/public/html.js";
import type { AckLinkIncident, AckLinkState } from "./ack-link-verbs.js";

// The tiny server-rendered page of a one-click acknowledge link (/ack/<token>): no script, one
// form. A GET shows the incident and one "Acknowledge" button; the POST acknowledges and
// answers with what it did. An unusable link says so without saying why.

/** Sent with every one of these pages: no script, nothing loaded; the form posts here only. */
export const ACK_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:34rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin:0 0 1rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{color:#5b6475}dd{margin:0}.title{font-size:1.15rem;font-weight:600}
button{font:inherit;font-weight:600;padding:.6rem 1.4rem;border:0;border-radius:6px;background:#2457d6;color:#fff;cursor:pointer}
.done{color:#17803d}.muted{color:#5b6475}`;

const when = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC");

function incidentFacts(incident: AckLinkIncident): string {
  return `<p class="title">${escapeHtml(incident.title)}</p>
<dl>
<dt>Project</dt><dd>${escapeHtml(incident.projectName)}</dd>
<dt>Severity</dt><dd>${escapeHtml(incident.severity)}</dd>
<dt>Started</dt><dd>${escapeHtml(when(incident.startedAt))}</dd>
</dl>`;
}

const openLink = (incident: AckLinkIncident) =>
  `<p><a href="${escapeHtml(incident.dashboardPath)}">Open the incident in Vigil</a></p>`;

function page(heading: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(heading)} — Vigil</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(heading)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** The page of a link's state; `action` is the link's own path (the form posts to it). */
export function renderAckPage(state: AckLinkState, action: string): string {
  switch (state.state) {
    case "unavailable":
      return page(
        "This link cannot be used",
        '<p>This acknowledge link is unknown, has expired or was used already. Sign in to Vigil to acknowledge the incident there.</p><p><a href="/">Open Vigil</a></p>',
      );
    case "open":
      return page(
        "Acknowledge this incident?",
        `${incidentFacts(state.incident)}
<form method="post" action="${escapeHtml(action)}"><button type="submit">Acknowledge</button></form>
<p class="muted">Acknowledging tells your team someone is on it and stops its escalation. The link works once.</p>`,
      );
    case "acknowledged": {
      const name = state.by.label ?? (state.by.kind === "user" ? "a member" : "Vigil");
      const who = state.by.kind === "link" ? `a link sent by ${name}` : name;
      const heading = state.byThisLink ? "Acknowledged" : "Already acknowledged";
      const line = state.byThisLink
        ? `<p class="done">You acknowledged this incident at ${escapeHtml(when(state.acknowledgedAt))}. Its escalation stops.</p>`
        : `<p>It was acknowledged by ${escapeHtml(who)} at ${escapeHtml(when(state.acknowledgedAt))}.</p>`;
      return page(heading, `${incidentFacts(state.incident)}${line}${openLink(state.incident)}`);
    }
    case "resolved":
      return page(
        "This incident is resolved",
        `${incidentFacts(state.incident)}<p>It was resolved${state.resolvedAt ? ` at ${escapeHtml(when(state.resolvedAt))}` : ""}; there is nothing to acknowledge.</p>${openLink(state.incident)}`,
      );
  }
}

/** What a client over the link's rate limit sees. */
export function renderAckRateLimited(retryAfterSeconds: number): string {
  return page(
    "Too many attempts",
    `<p>Too many requests from here. Try again in ${retryAfterSeconds} s.</p>`,
  );
}
