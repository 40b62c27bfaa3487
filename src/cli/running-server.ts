import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { createApiKey, deleteApiKey } from "../auth/api-keys.js";
import { createDomainDeps } from "../composition/domain-deps.js";
import { openMetaStore } from "../composition/stores.js";
import type { Config } from "../config/config-schema.js";
import type { Ctx } from "../context.js";
import type { CreateApiKeyInput } from "../contracts/auth.js";
import { DomainError } from "../lib/domain-errors.js";

/**
 * `vigil serve` announces itself in `<dataDir>/server.json`, so that `vigil demo` and `vigil tql`
 * (which cannot open the telemetry engine a server holds: chDB locks its directory) use the
 * server over HTTP instead.
 */
export const SERVER_FILE = "server.json";

const ServerInfo = z.object({
  url: z.url(),
  pid: z.number().int().positive(),
  startedAt: z.string(),
});
export type ServerInfo = z.infer<typeof ServerInfo>;

/** Writes the file atomically (temp file, then rename): a reader never sees half of it. */
export function writeServerFile(dataDir: string, info: ServerInfo): void {
  // With every store external (PostgreSQL, a ClickHouse server) nothing else creates the dir.
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, SERVER_FILE);
  const temp = `${path}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o644 });
  renameSync(temp, path);
}

/** Removes the file if it still describes this process (another server may have replaced it). */
export function removeServerFile(dataDir: string, pid = process.pid): void {
  if (readServerFile(dataDir)?.pid === pid) rmSync(join(dataDir, SERVER_FILE), { force: true });
}

/** The file's content, or undefined when it is missing or not ours. */
export function readServerFile(dataDir: string): ServerInfo | undefined {
  try {
    const parsed = ServerInfo.safeParse(
      JSON.parse(readFileSync(join(dataDir, SERVER_FILE), "utf8")),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** A URL to reach the server from this machine: a wildcard bind is reached on loopback. */
function reachableUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === "0.0.0.0") parsed.hostname = "127.0.0.1";
  if (parsed.hostname === "[::]") parsed.hostname = "[::1]";
  return parsed.origin;
}

const HEALTH_TIMEOUT_MS = 2000;

/**
 * The server that runs on this data dir, if one does: its file is present, its process alive,
 * and it answers /healthz. A file left by a killed server, or a stopped process, is not one.
 */
export async function findRunningServer(dataDir: string): Promise<ServerInfo | undefined> {
  const info = readServerFile(dataDir);
  if (!info || !isAlive(info.pid)) return undefined;
  const url = reachableUrl(info.url);
  try {
    const response = await fetch(new URL("/healthz", url), {
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    const body = (await response.json()) as { status?: unknown };
    return response.ok && body.status === "ok" ? { ...info, url } : undefined;
  } catch {
    return undefined;
  }
}

export const TEMPORARY_KEY_NAME = "vigil-cli (temporary)";

/**
 * Runs fn with a fresh API key of the chosen project, deleted afterwards (a revoked one would
 * stay in the key list for good), also on SIGINT/SIGTERM. The metadata store (SQLite in WAL
 * mode, or PostgreSQL) is shared with the running server. Keys have no expiry, so a CLI killed
 * with SIGKILL leaves its key active: `vigil keys list` shows it.
 */
export async function withTemporaryKey<T>(
  config: Config,
  project: (ctx: Ctx) => Promise<string>,
  access: Omit<CreateApiKeyInput, "name">,
  fn: (key: string, projectId: string) => Promise<T>,
): Promise<T> {
  const meta = await openMetaStore(config);
  const ctx: Ctx = { deps: createDomainDeps(config, meta, {}), actor: { kind: "system" } };
  let created: { id: string; key: string; projectId: string };
  try {
    const projectId = await project(ctx);
    created = await createApiKey({
      ctx,
      projectId,
      input: { ...access, name: TEMPORARY_KEY_NAME },
    });
  } catch (error) {
    await meta.close();
    throw error;
  }
  const keyId = created.id;
  let removing: Promise<unknown> | undefined;
  const remove = () => {
    removing ??= deleteApiKey({ ctx, keyId }).finally(() => meta.close());
    return removing;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void remove().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await fn(created.key, created.projectId);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await remove();
  }
}

/** chDB's failure to open a data dir another process holds (its status file is locked). */
const LOCKED = /Failed to create connection|Cannot lock file|Another server instance/;

/**
 * Explains a telemetry engine that would not open: when another process holds the data dir, say
 * how to reach the server instead, with the port it really listens on when its file tells it.
 */
export function engineOpenError(config: Config, error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (!LOCKED.test(message)) return error;
  const info = readServerFile(config.dataDir);
  const url = info ? reachableUrl(info.url) : "http://127.0.0.1:<port>";
  const who = info
    ? `Another process holds ${config.dataDir} (the Vigil server started at ${info.startedAt}, pid ${info.pid}, on ${info.url}, did not answer)`
    : `Another process holds ${config.dataDir} (a Vigil server or another vigil command)`;
  return new DomainError(
    "unavailable",
    `${who}: chDB opens a data dir in one process only. Stop that process, or send this command to the server with --url ${url} --key vgl_… (an API key of the project).`,
  );
}
