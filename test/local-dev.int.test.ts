import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_GRPC_PORT } from "../src/config/config-fields.js";
import { spawnCli } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

const OWNER = { email: "dev@example.com", password: "a long password" };

/** A plain-http local receiver (monitor target and webhook endpoint at once), answering 200. */
async function startHttpReceiver(): Promise<{
  url: string;
  received: { method: string; path: string; event: string | undefined }[];
  close(): Promise<void>;
}> {
  const received: { method: string; path: string; event: string | undefined }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on("end", () => {
      const event = req.headers["x-service-event"];
      received.push({
        method: req.method ?? "",
        path: req.url ?? "",
        event: typeof event === "string" ? event : undefined,
      });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Holds a TCP port on 127.0.0.1; the port already taken by someone else counts as held too. */
async function holdPort(port: number): Promise<TcpServer | undefined> {
  const server = createTcpServer();
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      error.code === "EADDRINUSE" ? resolve(undefined) : reject(error),
    );
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** `vigil serve --json --port 0 …args` until its ready line or its exit. */
async function serve(args: string[], dataDir: string, env: Record<string, string> = {}) {
  const child = spawnCli(["serve", "--json", "--port", "0", "--data-dir", dataDir, ...args], env);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const outcome = await Promise.race([
    exited.then((code) => ({ exited: code })),
    new Promise<{ ready: { url: string; grpcUrl?: string } }>((resolve) => {
      const check = () => {
        const line = stdout.split("\n")[0];
        if (!stdout.includes("\n") || !line) return;
        const parsed = JSON.parse(line) as { url?: string; grpcUrl?: string };
        // An error object is followed by the exit, which the race reports.
        if (parsed.url) resolve({ ready: { ...parsed, url: parsed.url } });
      };
      child.stdout.on("data", check);
    }),
  ]);
  return {
    outcome,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

describe("local development", { timeout: 60_000 }, () => {
  const dir = makeTempDir();
  const stops: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    dir.remove();
  });

  async function signedIn(service: TestService) {
    const session = await signIn(service, OWNER.email, OWNER.password);
    const projects = (await (await session.get("/api/projects")).json()) as {
      data: { id: string }[];
    };
    const projectId = projects.data[0]?.id;
    if (!projectId) throw new Error("no project");
    return { session, projectId };
  }

  it("without --dev, a monitor on 127.0.0.1 and an http:// webhook are refused, naming the field and the setting", async () => {
    const service = await startTestService(join(dir.path, "strict"), {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
    });
    const receiver = await startHttpReceiver();
    stops.push(() => receiver.close());
    // chDB opens one data dir per process: each in-process service stops before the next starts.
    try {
      await refusedWithoutDev(service, receiver);
    } finally {
      await service.stop();
    }
  });

  async function refusedWithoutDev(
    service: TestService,
    receiver: Awaited<ReturnType<typeof startHttpReceiver>>,
  ) {
    const { session, projectId } = await signedIn(service);
    const monitor = await session.post(`/api/projects/${projectId}/monitors`, {
      name: "local",
      type: "api",
      steps: [{ url: `${receiver.url}/` }],
    });
    expect(monitor.status).toBe(400);
    expect(monitor.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const monitorProblem = (await monitor.json()) as {
      errors: { field: string; message: string }[];
    };
    expect(monitorProblem.errors[0]?.field).toBe("steps.0.url");
    expect(monitorProblem.errors[0]?.message).toMatch(/VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS/);

    const hook = await session.post(`/webhooks/${projectId}/endpoints`, {
      url: `${receiver.url}/hooks`,
      events: ["monitor.down"],
    });
    expect(hook.status).toBe(400);
    const hookProblem = (await hook.json()) as { errors: { field: string; message: string }[] };
    expect(hookProblem.errors).toEqual([
      { field: "url", message: expect.stringMatching(/must be an https:\/\/ URL/) },
    ]);
    expect(hookProblem.errors[0]?.message).toMatch(/VIGIL_WEBHOOKS_ALLOW_HTTP_LOOPBACK|--dev/);
    expect(receiver.received).toEqual([]);
  }

  it("with the settings --dev sets, http:// webhooks to loopback verify and deliver; http:// elsewhere is still refused", async () => {
    const service = await startTestService(join(dir.path, "dev"), {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_WEBHOOKS_ALLOW_HTTP_LOOPBACK: "true",
    });
    const receiver = await startHttpReceiver();
    stops.push(() => receiver.close());
    try {
      await allowedWithDev(service, receiver);
    } finally {
      await service.stop();
    }
  });

  async function allowedWithDev(
    service: TestService,
    receiver: Awaited<ReturnType<typeof startHttpReceiver>>,
  ) {
    const { session, projectId } = await signedIn(service);
    const created = await session.post(`/webhooks/${projectId}/endpoints`, {
      url: `${receiver.url}/hooks`,
      events: ["monitor.down"],
    });
    expect(created.status).toBe(201);
    const endpoint = (await created.json()) as { id: string };
    expect(receiver.received).toContainEqual({
      method: "POST",
      path: "/hooks",
      event: "endpoint.verify",
    });
    const ping = await session.post(`/webhooks/${projectId}/endpoints/${endpoint.id}/test`);
    expect(ping.status).toBeLessThan(300);
    await expect.poll(() => receiver.received.map((r) => r.event)).toContain("test.ping");

    // Only loopback hosts may be plain http; a changed URL is held to the same rule. A name
    // other than localhost is resolved by the system (*.localhost may reach DNS): refused too.
    for (const url of [
      "http://example.com/hooks",
      "http://10.0.0.7/hooks",
      `http://x.localhost:${new URL(receiver.url).port}/hooks`,
    ]) {
      const refused = await session.patch(`/webhooks/${projectId}/endpoints/${endpoint.id}`, {
        url,
      });
      expect(refused.status).toBe(400);
      const problem = (await refused.json()) as { errors: { field: string; message: string }[] };
      expect(problem.errors[0]?.field).toBe("url");
      expect(problem.errors[0]?.message).toMatch(/must be an https:\/\/ URL/);
    }
    // localhost itself is this machine by definition.
    const local = await session.patch(`/webhooks/${projectId}/endpoints/${endpoint.id}`, {
      url: `http://localhost:${new URL(receiver.url).port}/local`,
    });
    expect(local.status).toBe(200);
    expect(receiver.received.map((r) => r.path)).toContain("/local");
  }

  it("--dev refuses to start on a host others can reach (VIGIL_HOST=0.0.0.0, as the Docker image sets)", async () => {
    const server = await serve(["--dev"], join(dir.path, "dev-public"), { VIGIL_HOST: "0.0.0.0" });
    stops.push(server.stop);
    expect(server.outcome).toEqual({ exited: 1 });
    const { error } = JSON.parse(server.stdout()) as { error: { code: string; message: string } };
    expect(error.code).toBe("invalid_config");
    expect(error.message).toMatch(/VIGIL_HOST: --dev .*loopback.*\(it is 0\.0\.0\.0\)/);
    // Refused before the banner: nothing was relaxed.
    expect(server.stderr()).not.toMatch(/LOCAL DEVELOPMENT MODE/);
  });

  it("a busy default OTLP/gRPC port is a warning naming the setting, and the service runs", async () => {
    const held = await holdPort(DEFAULT_GRPC_PORT);
    stops.push(async () => held?.close());
    const server = await serve(["--dev"], join(dir.path, "busy-default"));
    stops.push(server.stop);
    expect(server.outcome).toMatchObject({ ready: { url: expect.any(String) } });
    if (!("ready" in server.outcome)) throw new Error(server.stderr());
    expect(server.outcome.ready.grpcUrl).toBeUndefined();
    expect(server.stderr()).toMatch(/default port 4317 .* is busy/);
    expect(server.stderr()).toMatch(/VIGIL_GRPC_PORT/);
    // The --dev banner comes first, saying what it relaxes.
    expect(server.stderr().split("\n")[1]).toMatch(/LOCAL DEVELOPMENT MODE/);
    for (const variable of [
      "VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS",
      "VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS",
      "VIGIL_WEBHOOKS_ALLOW_HTTP_LOOPBACK",
    ])
      expect(server.stderr()).toContain(variable);
    const health = await fetch(`${server.outcome.ready.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await server.stop()).toBe(0);
  });

  it("the default OTLP/gRPC port on an address this machine lacks stops the service: only a busy port is a warning", async () => {
    // 192.0.2.1 (TEST-NET-1) is no interface of this machine: binding it fails with EADDRNOTAVAIL.
    const server = await serve([], join(dir.path, "grpc-unassignable"), {
      VIGIL_GRPC_HOST: "192.0.2.1",
    });
    stops.push(server.stop);
    expect(server.outcome).toEqual({ exited: 1 });
    const { error } = JSON.parse(server.stdout()) as { error: { message: string } };
    expect(error.message).toContain(`OTLP/gRPC cannot listen on 192.0.2.1:${DEFAULT_GRPC_PORT}`);
    expect(error.message).toContain("EADDRNOTAVAIL");
    expect(error.message).toMatch(/VIGIL_GRPC_HOST/);
    expect(error.message).not.toMatch(/port in use/);
    expect(server.stderr()).not.toMatch(/is busy/);
  });

  it("an explicitly chosen busy OTLP/gRPC port stops the service with an error naming it", async () => {
    const held = await holdPort(0);
    if (!held) throw new Error("no port");
    stops.push(async () => held.close());
    const port = (held.address() as AddressInfo).port;
    const server = await serve(["--grpc-port", String(port)], join(dir.path, "busy-chosen"));
    stops.push(server.stop);
    expect(server.outcome).toEqual({ exited: 1 });
    const { error } = JSON.parse(server.stdout()) as { error: { message: string } };
    expect(error.message).toContain(`OTLP/gRPC cannot listen on 127.0.0.1:${port}`);
    expect(error.message).toMatch(/VIGIL_GRPC_PORT/);
    expect(server.stderr()).not.toMatch(/LOCAL DEVELOPMENT MODE/);
  });
});
