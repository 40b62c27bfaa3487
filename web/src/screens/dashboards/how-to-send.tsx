import { useEffect, useRef } from "react";
import { renderMarkdown } from "./panels/markdown";

/**
 * A template's "how to send the data" Markdown, through the text panels' sanitizer (raw HTML
 * shown as text, an allow-list of tags, safe links only): it ships with Vigil, but is shown as
 * any Markdown is.
 */
export function HowToSend({ markdown }: { markdown: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.replaceChildren(renderMarkdown(markdown));
  }, [markdown]);
  return <div ref={box} className="dsh-markdown" />;
}
