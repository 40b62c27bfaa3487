import type { Actor, AnonymousActor, ApiKeyActor, Ctx, DomainDeps } from "../context.js";
import { nowIso } from "../context.js";
import {
  type ApiKeyPermissions,
  ApiKeyRole,
  type ApiKeyView,
  CreateApiKeyInput,
  Permission,
} from "../contracts/auth.js";
import { randomBase62, sha256Hex } from "../lib/crypto.js";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../lib/domain-errors.js";
import { parseInput } from "../lib/validation.js";
import type { ApiKeyRecord } from "../meta/repositories/api-keys.js";
import { requireProject } from "../projects/projects.js";
import { API_KEY_ROLES, PERMISSION_DESCRIPTIONS } from "./permissions.js";

const KEY_PREFIX = "vgl_";
const KEY_RANDOM_LENGTH = 32;
const KEY_PATTERN = /^vgl_[0-9A-Za-z]{24,64}$/;
/** Writes of lastUsedAt are skipped when the stored value is newer than this. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function listApiKeyPermissions(): ApiKeyPermissions {
  return {
    permissions: Permission.options.map((name) => ({
      name,
      description: PERMISSION_DESCRIPTIONS[name],
    })),
    roles: ApiKeyRole.options.map((name) => ({ name, permissions: [...API_KEY_ROLES[name]] })),
  };
}

export const toApiKeyView = (key: ApiKeyRecord): ApiKeyView => ({
  id: key.id,
  projectId: key.projectId,
  name: key.name,
  prefix: key.keyPrefix,
  role: key.role,
  permissions: key.permissions,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt,
  revokedAt: key.revokedAt,
});

/** A fresh key secret with what is stored of it: its SHA-256 and display prefix. */
function generateApiKeySecret(): { secret: string; keyHash: string; keyPrefix: string } {
  const secret = `${KEY_PREFIX}${randomBase62(KEY_RANDOM_LENGTH)}`;
  return { secret, keyHash: sha256Hex(secret), keyPrefix: secret.slice(0, 8) };
}

/** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
export async function createApiKey({
  ctx,
  projectId,
  input,
}: {
  ctx: Ctx;
  projectId: string;
  input: CreateApiKeyInput;
}): Promise<ApiKeyView & { key: string }> {
  const { name, role, permissions } = parseInput(CreateApiKeyInput, input);
  await requireProject({ ctx, projectId, access: "manage" });
  const { secret, keyHash, keyPrefix } = generateApiKeySecret();
  const record = await ctx.deps.meta.run((repos) =>
    repos.apiKeys.insert({
      id: ctx.deps.newId("key"),
      projectId,
      name,
      keyHash,
      keyPrefix,
      role: permissions ? "custom" : (role ?? "full"),
      permissions: [...(permissions ? new Set(permissions) : API_KEY_ROLES[role ?? "full"])],
      createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      createdAt: nowIso(ctx.deps),
      lastUsedAt: null,
      revokedAt: null,
    }),
  );
  return { ...toApiKeyView(record), key: secret };
}

export async function listApiKeys({
  ctx,
  projectId,
}: {
  ctx: Ctx;
  projectId: string;
}): Promise<ApiKeyView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const keys = await ctx.deps.meta.repos.apiKeys.listByProject(projectId);
  return keys.map(toApiKeyView);
}

/**
 * Revokes a key. With `projectId` (the API's path) the key must belong to that project; without
 * it (the CLI) the key's own project is used. Either way the actor must manage that project.
 */
export async function revokeApiKey({
  ctx,
  keyId,
  projectId,
}: {
  ctx: Ctx;
  keyId: string;
  projectId?: string;
}): Promise<ApiKeyView> {
  const { apiKeys } = ctx.deps.meta.repos;
  const existing = await apiKeys.findById(keyId);
  const scope = projectId ?? existing?.projectId;
  // Access first: a project outside the actor's organizations answers 404 before anything else.
  if (scope) await requireProject({ ctx, projectId: scope, access: "manage" });
  if (!existing || existing.projectId !== scope) throw new NotFoundError("API key", keyId);
  const at = nowIso(ctx.deps);
  await apiKeys.revoke(keyId, at);
  return toApiKeyView({ ...existing, revokedAt: existing.revokedAt ?? at });
}

/**
 * Deletes a key outright (the actor must manage its project): for keys that exist only while a
 * command runs, which would otherwise pile up in the list, revoked. Users revoke instead.
 */
export async function deleteApiKey({ ctx, keyId }: { ctx: Ctx; keyId: string }): Promise<void> {
  const { apiKeys } = ctx.deps.meta.repos;
  const existing = await apiKeys.findById(keyId);
  if (!existing) throw new NotFoundError("API key", keyId);
  await requireProject({ ctx, projectId: existing.projectId, access: "manage" });
  await apiKeys.delete(keyId);
}

/** Refuses (403) a key without the permission; for every transport, before it decodes a body. */
export function requireKeyPermission(actor: ApiKeyActor, permission: Permission): void {
  if (!actor.permissions.includes(permission)) {
    throw new ForbiddenError(`This API key lacks the '${permission}' permission`);
  }
}

/** Resolves the X-API-Key value to its key; missing, malformed, unknown or revoked → UnauthorizedError. */
export async function authenticateApiKey({
  ctx,
  presented,
}: {
  ctx: Ctx<DomainDeps, Actor | AnonymousActor>;
  presented: string | undefined;
}): Promise<ApiKeyActor> {
  const { deps } = ctx;
  if (!presented) throw new UnauthorizedError("Missing X-API-Key header");
  if (!KEY_PATTERN.test(presented)) throw new UnauthorizedError("Invalid API key");
  // Looked up by the SHA-256 of the secret: the secret itself is never compared, so response
  // times say nothing about how close a guess was.
  const key = await deps.meta.repos.apiKeys.findByHash(sha256Hex(presented));
  if (!key) throw new UnauthorizedError("Invalid API key");
  if (key.revokedAt !== null) throw new UnauthorizedError("This API key has been revoked");
  const now = deps.clock.now();
  if (!key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) > LAST_USED_RESOLUTION_MS) {
    await deps.meta.repos.apiKeys.touchLastUsed(key.id, now.toISOString());
  }
  const permissions = key.permissions.filter(
    (p): p is Permission => Permission.safeParse(p).success,
  );
  return { kind: "api_key", keyId: key.id, projectId: key.projectId, permissions };
}
