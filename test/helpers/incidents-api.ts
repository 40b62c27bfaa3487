import type { IncidentDetailView } from "../../src/contracts/incidents.js";
import type { Page, Problem } from "../../src/contracts/pagination.js";
import type { Session } from "./roles.js";

// What the incident API tests share (test/incidents-*.int.test.ts): the answers' shapes (the
// contract's own) and an incident opened by hand through the API.

export type Incident = IncidentDetailView;
export type { Page, Problem };

export const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

/** Opens an incident through the API as `owner`; throws with the problem unless it is a 201. */
export async function createIncident(
  owner: Session,
  base: string,
  body: Record<string, unknown>,
): Promise<Incident> {
  const response = await owner.post(base, body);
  const created = await json<Incident>(response);
  if (response.status !== 201)
    throw new Error(`create ${response.status}: ${JSON.stringify(created)}`);
  return created;
}
