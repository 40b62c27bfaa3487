import { ConflictError, NotFoundError } from "../lib/domain-errors.js";

/**
 * A record of the project from its repository: a missing one and one of another project are
 * both "not found", so an id does not tell whether it exists elsewhere.
 */
export async function findInProject<T extends { projectId: string }>(
  records: { findById(id: string): Promise<T | null | undefined> },
  projectId: string,
  what: string,
  id: string,
): Promise<T> {
  const record = await records.findById(id);
  if (!record || record.projectId !== projectId) throw new NotFoundError(what, id);
  return record;
}

/**
 * Names are unique per project: another record with `name` (not `self`, the one being renamed)
 * is a 409 naming the `name` field. `what` reads "a saved query", "a channel".
 */
export async function requireFreeName(
  records: {
    findByName(projectId: string, name: string): Promise<{ id: string } | null | undefined>;
  },
  projectId: string,
  what: string,
  name: string,
  self?: string,
): Promise<void> {
  const clash = await records.findByName(projectId, name);
  if (!clash || clash.id === self) return;
  const message = `${what} named '${name}' already exists in this project`;
  throw new ConflictError(message.charAt(0).toUpperCase() + message.slice(1), [
    { field: "name", message },
  ]);
}
