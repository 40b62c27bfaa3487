import { z } from "zod";

/** A project as the API shows it. */
export const ProjectView = z
  .object({ id: z.string(), orgId: z.string(), name: z.string(), createdAt: z.string() })
  .meta({ id: "Project" });
export type ProjectView = z.infer<typeof ProjectView>;

export const CreateProjectInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    /** Required only when the user belongs to several organizations. */
    orgId: z.string().min(1).optional(),
  })
  .strict();
export type CreateProjectInput = z.input<typeof CreateProjectInput>;
