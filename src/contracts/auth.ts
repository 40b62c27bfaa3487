import { z } from "zod";

// What the browser and the server share of sign-in, members and API keys (docs/design.md §4).

export const Email = z.string().trim().toLowerCase().pipe(z.email("must be a valid email address"));
/** Upper bound keeps scrypt's cost bounded for hostile inputs. */
export const Password = z
  .string()
  .min(8, "must be at least 8 characters")
  .max(256, "must be at most 256 characters");

export const LoginInput = z.object({ email: Email, password: z.string().min(1).max(256) }).strict();
export type LoginInput = z.input<typeof LoginInput>;

/** The roles of an organization's members, from most to least privileged. */
export const MEMBER_ROLES = ["owner", "admin", "member", "viewer"] as const;
export const MemberRole = z.enum(MEMBER_ROLES);
export type MemberRole = z.infer<typeof MemberRole>;

/** The signed-in user and their organizations (GET /api/auth/me). */
export const Me = z
  .object({
    user: z.object({ id: z.string(), email: z.string(), name: z.string(), createdAt: z.string() }),
    organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
    sessionExpiresAt: z.string(),
  })
  .meta({ id: "Me" });
export type Me = z.infer<typeof Me>;

/** Whether the request's session is signed in: 200 either way (the dashboard's first question). */
export const SessionState = z
  .object({
    signedIn: z.boolean(),
    me: Me.nullable().describe(
      "The signed-in user, as GET /api/auth/me answers; null when signed out",
    ),
  })
  .meta({ id: "SessionState" });
export type SessionState = z.infer<typeof SessionState>;

/** A member of an organization as the API shows it. */
export const MemberView = z
  .object({
    userId: z.string(),
    email: z.string(),
    name: z.string(),
    role: MemberRole,
    joinedAt: z.string(),
  })
  .meta({ id: "OrganizationMember" });
export type MemberView = z.infer<typeof MemberView>;

export const ChangeMemberRoleInput = z
  .object({ role: MemberRole })
  .strict()
  .meta({ id: "ChangeMemberRoleInput", example: { role: "viewer" } });
export type ChangeMemberRoleInput = z.input<typeof ChangeMemberRoleInput>;

/** Every permission an API key can hold (docs/design.md §4). */
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

/** The named bundles of permissions a key can be created with. */
export const ApiKeyRole = z.enum(["read_only", "ingest", "full"]);
export type ApiKeyRole = z.infer<typeof ApiKeyRole>;

export const CreateApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(100).default("API key"),
    role: ApiKeyRole.optional(),
    permissions: z.array(Permission).min(1, "choose at least one permission").optional(),
  })
  .strict()
  .refine((v) => v.role === undefined || v.permissions === undefined, {
    message: "give either role or permissions, not both",
    path: ["permissions"],
  });
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

/** The permissions a key can hold and the roles that bundle them (the key form lists them). */
export const ApiKeyPermissions = z
  .object({
    permissions: z.array(z.object({ name: Permission, description: z.string() })),
    roles: z.array(z.object({ name: ApiKeyRole, permissions: z.array(Permission) })),
  })
  .meta({ id: "ApiKeyPermissions" });
export type ApiKeyPermissions = z.infer<typeof ApiKeyPermissions>;

/** An API key as the API shows it: never the secret or its hash. */
export const ApiKeyView = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    prefix: z.string().describe("The first 8 characters of the key, for recognising it"),
    role: z
      .string()
      .describe("read_only, ingest, full, or custom when created with explicit permissions"),
    permissions: z.array(z.string()),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: "ApiKey" });
export type ApiKeyView = z.infer<typeof ApiKeyView>;

/** A key just created: its view and, this once, its secret. */
export const CreatedApiKey = ApiKeyView.extend({
  key: z.string().describe("The secret; shown in this response only"),
}).meta({ id: "CreatedApiKey" });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;
