import { Writable } from "node:stream";
import { type RunningService, startService } from "../../src/cli/serve.js";
import type { DepsOptions } from "../../src/composition/app-deps.js";
import { loadConfig } from "../../src/config/load-config.js";
import { createLogger } from "../../src/lib/logger.js";
import type { ServerOptions } from "../../src/server/server.js";

export interface TestService extends RunningService {
  /** Every log line the service wrote, as text. */
  logs: string[];
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** Starts the real service in-process on 127.0.0.1 and an ephemeral port. */
export async function startTestService(
  dataDir: string,
  env: Record<string, string> = {},
  serverOptions: ServerOptions = {},
  depsOptions: Pick<DepsOptions, "clock" | "newId"> = {},
): Promise<TestService> {
  const config = loadConfig({
    env: {
      VIGIL_DATA_DIR: dataDir,
      VIGIL_PORT: "0",
      VIGIL_GRPC_PORT: "0",
      VIGIL_HOST: "127.0.0.1",
      VIGIL_LOG_LEVEL: "info",
      ...env,
    },
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const service = await startService(
    config,
    createLogger(config.logLevel, sink),
    serverOptions,
    depsOptions,
  );
  return {
    ...service,
    logs,
    fetch: (path, init) => fetch(`${service.url}${path}`, init),
  };
}

/** A signed-in browser-like client: keeps the session cookie and sends a same-origin Origin on writes. */
export async function signIn(service: TestService, email: string, password: string) {
  const response = await service.fetch("/api/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", origin: service.url },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200)
    throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const send = (method: string, path: string, body?: unknown) =>
    service.fetch(path, {
      method,
      headers: {
        cookie,
        origin: service.url,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    cookie,
    get: (path: string) => send("GET", path),
    post: (path: string, body?: unknown) => send("POST", path, body ?? {}),
    patch: (path: string, body: unknown) => send("PATCH", path, body),
    put: (path: string, body: unknown) => send("PUT", path, body),
    delete: (path: string) => send("DELETE", path),
  };
}
