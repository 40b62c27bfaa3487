// Saved views (docs/explore.md "Saved views"): an explorer's location (path and query string,
// which carry its filters) saved by name for the project, to open again or share.
import { z } from "zod";

export const SAVED_VIEW_KINDS = ["logs", "traces", "metrics", "services", "query"] as const;
export type SavedViewKind = (typeof SAVED_VIEW_KINDS)[number];

/** A saved location's length: what any explorer's query string needs, no more. */
export const MAX_SAVED_VIEW_URL = 4096;

/** The app's path of a project: a saved view's url starts with it. */
export const projectUrlPrefix = (projectId: string): string =>
  `/projects/${encodeURIComponent(projectId)}/`;

/**
 * Why `url` is not a path and query string of this app (relative: no scheme, no host, no
 * fragment, nothing a browser would resolve elsewhere), or undefined when it is one.
 */
export function savedViewUrlProblem(url: string): string | undefined {
  if (!url.startsWith("/") || url.startsWith("//"))
    return "must be a path of this app, starting with one /";
  if (/[\s\\#]/.test(url) || [...url].some((c) => c.charCodeAt(0) < 32 || c === "\u007f"))
    return "must not hold spaces, backslashes, control characters or a # fragment";
  const parsed = new URL(url, "http://vigil.invalid");
  // What the browser would open must be the text itself: no dot segments, no other origin.
  if (parsed.origin !== "http://vigil.invalid" || `${parsed.pathname}${parsed.search}` !== url)
    return "must be a plain, percent-encoded path and query string (no . or .. segments)";
  return undefined;
}

const Name = z.string().trim().min(1).max(100);

const Url = z
  .string()
  .max(MAX_SAVED_VIEW_URL, `must be at most ${MAX_SAVED_VIEW_URL} characters`)
  .superRefine((url, ctx) => {
    const problem = savedViewUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .describe(
    "The view's path and query string in this app, under the project: /projects/<projectId>/logs?…",
  );

export const SavedViewKind = z.enum(SAVED_VIEW_KINDS).describe("Which explorer the view opens");

export const CreateSavedViewInput = z
  .object({ name: Name, kind: SavedViewKind, url: Url })
  .strict()
  .meta({ id: "CreateSavedViewInput" });
export type CreateSavedViewInput = z.input<typeof CreateSavedViewInput>;

export const UpdateSavedViewInput = z
  .object({
    name: Name.optional(),
    url: Url.optional().describe("Replaces the saved location (the view's current filters)"),
  })
  .strict()
  .meta({ id: "UpdateSavedViewInput" });
export type UpdateSavedViewInput = z.input<typeof UpdateSavedViewInput>;

export const SavedViewListQuery = z
  .object({ kind: SavedViewKind.optional().describe("Only views of this explorer") })
  .strict();
export type SavedViewListQuery = z.infer<typeof SavedViewListQuery>;

export const SavedView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string().describe("Unique among the project's views of its kind"),
    kind: SavedViewKind,
    url: z.string(),
    createdBy: z.string().nullable().describe("The user who saved it; null once removed"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "SavedView" });
export type SavedView = z.infer<typeof SavedView>;
