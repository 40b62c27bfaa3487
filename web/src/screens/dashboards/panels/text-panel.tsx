import { useLayoutEffect, useRef } from "react";
import { renderMarkdown } from "./markdown";

/**
 * A text panel: its Markdown rendered through the sanitizer (markdown.ts) and appended as
 * nodes, never as an HTML string.
 */
export function TextPanel({ content }: { content: string }) {
  const body = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    body.current?.replaceChildren(renderMarkdown(content));
  }, [content]);
  if (content.trim() === "")
    return (
      <p className="panel-state muted small">
        This text panel is empty: edit it to write Markdown.
      </p>
    );
  return <div className="panel-text" ref={body} />;
}
