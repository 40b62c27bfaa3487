import { z } from "zod";
import { MEMBER_ROLES } from "../meta/repositories/users.js";

/** Every permission an API key can hold (DESIGN §4). */
export const PERMISSIONS = [
  "ingest",
  "logs:read",
  "traces:read",
  "errors:read",
  "incidents:read",
  "alerts:read",
  "status_pages:read",
  "infra:read",
  "http_metrics:read",
  "ai:read",
  "sessions:read",
  "tql:query",
] as const;
export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

const READ_PERMISSIONS = PERMISSIONS.filter((p) => p.endsWith(":read"));

/** Named bundles of permissions a key can be created with. */
export const API_KEY_ROLES = {
  read_only: [...READ_PERMISSIONS, "tql:query"],
  ingest: ["ingest"],
  full: [...PERMISSIONS],
} as const satisfies Record<string, readonly Permission[]>;
export const ApiKeyRole = z.enum(["read_only", "ingest", "full"]);
export type ApiKeyRole = z.infer<typeof ApiKeyRole>;

export const MemberRole = z.enum(MEMBER_ROLES);
export type MemberRole = z.infer<typeof MemberRole>;

/** Member roles allowed to manage an organization's projects and API keys. */
export const MANAGING_ROLES: readonly MemberRole[] = ["owner", "admin"];

/** Member roles allowed to change a project's data (resolve errors, edit monitors): all but viewer. */
export const WRITING_ROLES: readonly MemberRole[] = ["owner", "admin", "member"];
