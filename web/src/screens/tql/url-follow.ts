import { useCallback, useEffect, useRef } from "react";

/**
 * Follows a URL parameter the screen keeps in state: when the URL's `value` changes to one the
 * screen did not write (a saved view opened on this screen, Back), `apply` takes it. The screen
 * marks each value it writes (`mark`), so its own writes are never read back over newer edits.
 */
export function useUrlFollow(
  value: string | null,
  apply: (value: string) => void,
): (written: string) => void {
  const written = useRef(value);
  const latest = useRef(apply);
  latest.current = apply;
  useEffect(() => {
    if (value !== null && value !== written.current) {
      written.current = value;
      latest.current(value);
    }
  }, [value]);
  return useCallback((text: string) => {
    written.current = text;
  }, []);
}
