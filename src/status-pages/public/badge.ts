import { makeBadge } from "badge-maker";
import { z } from "zod";
import type { PageState } from "../../contracts/status-pages.js";
import { PALETTE } from "./page-style.js";

// A shields.io-style SVG badge of the page's state. The label comes from the request's query
// string, so it is bounded here as well as by the route's schema; badge-maker escapes XML.

export const BADGE_STYLES = ["flat", "flat-square", "plastic", "for-the-badge"] as const;
export const BadgeStyle = z.enum(BADGE_STYLES);
export type BadgeStyle = z.infer<typeof BadgeStyle>;

export const BADGE_LABEL_MAX = 40;
export const DEFAULT_BADGE_LABEL = "status";

/** The badge's query parameters, for the route to validate `?label=&style=` with. */
export const BadgeQuery = z.object({
  label: z.string().max(BADGE_LABEL_MAX).optional(),
  style: BadgeStyle.optional(),
});
export type BadgeQuery = z.infer<typeof BadgeQuery>;

/** Options of `renderStatusBadge`. */
export interface StatusBadgeOptions {
  label?: string;
  style?: BadgeStyle;
}

// The page palette's solid colors: white badge text on them passes WCAG AA.
const COLORS: Record<PageState | "maintenance", string> = {
  operational: PALETTE.operational.solid,
  degraded: PALETTE.degraded.solid,
  down: PALETTE.down.solid,
  maintenance: PALETTE.maintenance.solid,
};

/** A label safe to draw: no control or bidi characters, whitespace collapsed, at most 40 characters. */
export const cleanBadgeLabel = (label: string | undefined): string => {
  if (label === undefined) return DEFAULT_BADGE_LABEL;
  // Control characters and bidi overrides could garble or disguise the text around them.
  const cleaned = label
    .replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (cleaned === "") return DEFAULT_BADGE_LABEL;
  const chars = Array.from(cleaned); // by code point, so a surrogate pair is never split
  return chars.length <= BADGE_LABEL_MAX
    ? cleaned
    : `${chars.slice(0, BADGE_LABEL_MAX - 1).join("")}…`;
};

/** An SVG badge reading "<label> | <state>" in the state's color. */
export const renderStatusBadge = (
  status: PageState | "maintenance",
  options: StatusBadgeOptions = {},
): string => {
  const style: BadgeStyle = BadgeStyle.safeParse(options.style).data ?? "flat";
  return makeBadge({
    label: cleanBadgeLabel(options.label),
    message: status,
    color: COLORS[status],
    labelColor: "#555",
    style,
  });
};
