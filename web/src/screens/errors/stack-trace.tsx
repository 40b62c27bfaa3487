import { useState } from "react";
import type { ErrorDetail } from "../../../../src/contracts/error-groups";
import { CopyButton } from "../../components/ui";

type StackLine = ErrorDetail["stack"][number];

type Block =
  | { kind: "text"; lines: StackLine[] }
  | { kind: "app"; line: StackLine }
  | { kind: "library"; lines: StackLine[] };

/** Consecutive library frames fold together; in-app frames and other lines stand alone. */
function blocksOf(stack: StackLine[]): Block[] {
  const blocks: Block[] = [];
  for (const line of stack) {
    const last = blocks.at(-1);
    if (line.frame?.inApp) blocks.push({ kind: "app", line });
    else if (line.frame) {
      if (last?.kind === "library") last.lines.push(line);
      else blocks.push({ kind: "library", lines: [line] });
    } else if (last?.kind === "text") last.lines.push(line);
    else blocks.push({ kind: "text", lines: [line] });
  }
  return blocks;
}

/**
 * The stack trace as the server annotated it: the application's own (in-app) frames highlighted
 * and labelled, runs of library and runtime frames folded (each run opens on its own, or all
 * at once), the raw text one click away for copying.
 */
export function StackTrace({ stack, raw }: { stack: StackLine[]; raw: string }) {
  const [expanded, setExpanded] = useState(false);
  const blocks = blocksOf(stack);
  const library = stack.filter((l) => l.frame && !l.frame.inApp).length;
  const inApp = stack.filter((l) => l.frame?.inApp).length;
  if (stack.length === 0) return <p className="muted">This error carries no stack trace.</p>;
  return (
    <div className="stack">
      <div className="stack-toolbar">
        <span className="muted small">
          {inApp} in-app frame{inApp === 1 ? "" : "s"}
          {library > 0 && ` · ${library} library frame${library === 1 ? "" : "s"}`}
        </span>
        {library > 0 && (
          <button
            type="button"
            className="button small"
            aria-pressed={expanded}
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? "Fold library frames" : "Show all frames"}
          </button>
        )}
        <CopyButton text={raw} label="Copy trace" />
      </div>
      <ol className="stack-lines">
        {blocks.map((block, i) => {
          const key = `${block.kind}-${i}`;
          if (block.kind === "app")
            return (
              <li key={key} className="stack-frame in-app">
                <code>{block.line.text}</code>
                <span className="badge badge-info">in app</span>
              </li>
            );
          if (block.kind === "text")
            return (
              <li key={key} className="stack-text">
                <code>{block.lines.map((l) => l.text).join("\n")}</code>
              </li>
            );
          return (
            <li key={key} className="stack-library">
              <details open={expanded || undefined}>
                <summary>
                  {block.lines.length} library frame{block.lines.length === 1 ? "" : "s"}
                </summary>
                <code>{block.lines.map((l) => l.text).join("\n")}</code>
              </details>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
