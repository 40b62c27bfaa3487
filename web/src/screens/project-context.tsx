import { createContext, useContext } from "react";
import type { ProjectView } from "../../../src/contracts/projects";

export interface ProjectScope {
  project: ProjectView;
  /** The user's role in the project's organization. */
  role: string;
}

export const ProjectContext = createContext<ProjectScope | null>(null);

/** The project the current screen shows (every screen under /projects/:projectId). */
export function useProject(): ProjectScope & { projectId: string; orgId: string } {
  const scope = useContext(ProjectContext);
  if (!scope) throw new Error("useProject outside a project screen");
  return { ...scope, projectId: scope.project.id, orgId: scope.project.orgId };
}
