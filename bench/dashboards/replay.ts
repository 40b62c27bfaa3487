import type { CreateDashboardInput } from "../../src/contracts/dashboards.js";
import type { Session } from "../../test/helpers/roles.js";

/**
 * What the page asks the server for, without a browser: the variable's query, then every panel's
 * at once with its values, as the view does. Answers the wall time, so the bench can say how much
 * of a paint is the server's and how much Chromium's on the same two cores.
 */
export async function replayBoard(
  session: Session,
  projectId: string,
  board: CreateDashboardInput,
  window: { from: string; to: string },
): Promise<number> {
  const started = performance.now();
  const ask = async (tql: string, variables: Record<string, string[]>) => {
    const response = await session.post(`/api/projects/${projectId}/v1/dashboards/query`, {
      tql,
      variables,
      timeRange: window,
    });
    if (response.status !== 200)
      throw new Error(`query: ${response.status} ${await response.text()}`);
    return (await response.json()) as { rows: unknown[][] };
  };
  const variables: Record<string, string[]> = {};
  for (const variable of board.variables ?? [])
    if (variable.type === "query")
      variables[variable.name] = (await ask(variable.tql, {})).rows.map((row) => String(row[0]));
  await Promise.all(
    (board.panels ?? []).flatMap((panel) =>
      (panel.queries ?? []).map((q) => ask(q.tql, variables)),
    ),
  );
  return performance.now() - started;
}
