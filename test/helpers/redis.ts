import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { freePort } from "./free-port.js";
import { makeTempDir } from "./temp-dir.js";

/**
 * The Redis tests are skipped with VIGIL_TEST_SKIP_REDIS=1, or outside CI on a machine without
 * redis-server (like the PostgreSQL and browser tests); in CI a missing binary fails them.
 */
export const SKIP_REDIS =
  process.env.VIGIL_TEST_SKIP_REDIS === "1" || (!process.env.CI && findRedisServer() === undefined);

/** redis-server on PATH, or Debian's /usr/bin/redis-server. */
export function findRedisServer(): string | undefined {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/bin", "/usr/sbin"]) {
    if (dir && existsSync(join(dir, "redis-server"))) return join(dir, "redis-server");
  }
  return undefined;
}

/** Sends PING over a raw socket: true once the server answers +PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let reply = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
  });
}

export interface ThrowawayRedis {
  url: string;
  port: number;
  /** SIGKILL: gone at once, as in a crash (nothing is persisted anyway). */
  kill(): Promise<void>;
  /** Starts a fresh, empty server on the same port after kill(). */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: a server that accepts connections but does not answer. */
  pause(): void;
  resume(): void;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts a private redis-server on 127.0.0.1 and a free port, in a temp directory, with no
 * persistence (`--save '' --appendonly no`). Throws, saying how to install it, when missing.
 */
export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const binary = findRedisServer();
  if (!binary)
    throw new Error(
      "redis-server not found on PATH or in /usr/bin: apt-get install redis-server " +
        "(or set VIGIL_TEST_SKIP_REDIS=1 to skip the Redis tests)",
    );
  const dir = makeTempDir("vigil-redis-");
  const port = await freePort();
  let server: ChildProcess | undefined;
  let stderr = "";

  async function start(): Promise<void> {
    const args = [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir.path,
      "--protected-mode",
      "yes",
    ];
    const child = spawn(binary as string, args, {
      stdio: ["ignore", "ignore", "pipe"],
      cwd: dir.path,
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    server = child;
    const deadline = Date.now() + 10_000;
    while (!(await pings(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`redis-server did not start on port ${port}: ${stderr.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function kill(): Promise<void> {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGCONT");
    child.kill("SIGKILL");
    await exited;
  }

  try {
    await start();
  } catch (error) {
    dir.remove();
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    restart: async () => {
      await kill();
      await start();
    },
    pause: () => server?.kill("SIGSTOP"),
    resume: () => server?.kill("SIGCONT"),
    stop: async () => {
      await kill();
      dir.remove();
    },
  };
}
