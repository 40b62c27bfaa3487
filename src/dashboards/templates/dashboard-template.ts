import type { z } from "zod";
import type { DashboardExport } from "../../contracts/dashboards.js";

/**
 * A dashboard Vigil ships (docs/dashboard-templates.md): the document an install copies into
 * the project, what the gallery shows, and how to tell whether the project has its data.
 */
export interface DashboardTemplate {
  /** Stable: an installed dashboard names it as its templateId. */
  id: string;
  title: string;
  description: string;
  tags: string[];
  /** Markdown: what to send (and how) so the panels have data. */
  howToSend: string;
  /** A TQL query without placeholders that answers a row when the project has the data. */
  dataCheck: string;
  /** The document as written (defaults filled in when the registry parses it). */
  dashboard: z.input<typeof DashboardExport>;
}
