/**
 * The path of a screen in a project: `projectPath(id, "traces", traceId)`. Screens link with it;
 * it lives apart from screens/registry.ts, which loads the screens, so no screen imports back.
 */
export const projectPath = (projectId: string, ...parts: string[]): string =>
  `/projects/${encodeURIComponent(projectId)}/${parts.map(encodeURIComponent).join("/")}`;
