import { useEffect, useState } from "react";

/**
 * Series colours: one fixed order, so a series keeps its colour from panel to panel and after
 * a reload; mid tones that read on the light and the dark theme alike.
 */
export const SERIES_PALETTE = [
  "#6366f1",
  "#06b6d4",
  "#f59e0b",
  "#ec4899",
  "#22c55e",
  "#a855f7",
  "#ef4444",
  "#14b8a6",
  "#3b82f6",
  "#f97316",
  "#84cc16",
  "#64748b",
] as const;

export const seriesColor = (index: number): string =>
  SERIES_PALETTE[index % SERIES_PALETTE.length] ?? SERIES_PALETTE[0];

/** A colour with an alpha, for fills: `#6366f1` at 0.25 → `#6366f140`. */
export const withAlpha = (hex: string, alpha: number): string =>
  `${hex}${Math.round(Math.max(0, Math.min(1, alpha)) * 255)
    .toString(16)
    .padStart(2, "0")}`;

const DARK = "(prefers-color-scheme: dark)";

/**
 * Whether the dark theme is on, following the system's switch while the page is open: canvas
 * charts read the theme's variables when drawn, so they redraw when it changes.
 */
export function useDarkTheme(): boolean {
  const [dark, setDark] = useState(() => window.matchMedia?.(DARK).matches ?? false);
  useEffect(() => {
    const media = window.matchMedia?.(DARK);
    if (!media) return;
    const changed = () => setDark(media.matches);
    media.addEventListener("change", changed);
    return () => media.removeEventListener("change", changed);
  }, []);
  return dark;
}

/** A CSS variable's value where `element` is (a canvas cannot read `var(…)` itself). */
export function cssVar(element: Element, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}
