/**
 * A template's "how to send the data" Markdown, shown as plain text (never as HTML) until the
 * panels' sanitized Markdown renderer can show it formatted.
 */
export function HowToSend({ markdown }: { markdown: string }) {
  return <div className="dsh-plain">{markdown}</div>;
}
