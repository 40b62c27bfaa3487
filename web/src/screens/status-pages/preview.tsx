import type { StatusPageView } from "../../../../src/contracts/status-pages";
import { publicPath } from "./api";

/**
 * The public page itself in a frame, so what you see is what visitors get. Its address carries
 * the page's data version, which every saved change (and every state change) moves: the frame
 * loads again after each save, and never from a stale HTTP cache entry. The public page sends
 * no X-Frame-Options and no frame-ancestors (it is meant to be embeddable), and the dashboard's
 * CSP allows same-origin frames. Sandboxed: the page needs no script, and links stay inert.
 */
export function Preview({ page }: { page: StatusPageView }) {
  const src = `${publicPath(page.slug)}?v=${page.dataVersion}`;
  return (
    <section className="sp-preview card" aria-label="Live preview">
      <header className="sp-preview-head">
        <h2>Live preview</h2>
        <span className="muted small">version {page.dataVersion}, reloaded on each save</span>
      </header>
      <iframe
        key={src}
        src={src}
        title={`Preview of the public page ${page.title}`}
        sandbox=""
        referrerPolicy="no-referrer"
      />
    </section>
  );
}
