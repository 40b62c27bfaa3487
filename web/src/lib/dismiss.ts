import { type RefObject, useEffect, useRef } from "react";

/**
 * While `open`, a press outside `root` or Escape calls `close` (a menu or a popover). Escape is
 * taken by it alone, so a full-screen view around it stays open.
 */
export function useDismiss(open: boolean, root: RefObject<HTMLElement | null>, close: () => void) {
  // The latest close, without subscribing again on every render.
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const onEvent = (event: Event) => {
      if (event instanceof KeyboardEvent) {
        if (event.key !== "Escape") return;
        event.preventDefault();
      } else if (root.current?.contains(event.target as Node)) return;
      latest.current();
    };
    document.addEventListener("mousedown", onEvent);
    document.addEventListener("keydown", onEvent);
    return () => {
      document.removeEventListener("mousedown", onEvent);
      document.removeEventListener("keydown", onEvent);
    };
  }, [open, root]);
}
