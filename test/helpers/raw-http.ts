import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";

/** A raw client socket that records what the server wrote and when it closed. */
export interface RawClient {
  socket: Socket;
  received(): string;
  /** Resolves with ms since the socket connected once the server closes it. */
  closed: Promise<number>;
  isClosed(): boolean;
}

/** Connects to 127.0.0.1:`port`, from `localAddress` (any of 127/8 on Linux) when given. */
export function openRaw(port: number, localAddress?: string): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, ...(localAddress ? { localAddress } : {}) });
    let text = "";
    let connectedAt = 0;
    let isClosed = false;
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    // A reset from the server is a close too; only a connect failure is an error here.
    socket.on("error", () => {});
    const closed = new Promise<number>((done) =>
      socket.once("close", () => {
        isClosed = true;
        done(Date.now() - connectedAt);
      }),
    );
    socket.once("connect", () => {
      connectedAt = Date.now();
      resolve({ socket, received: () => text, closed, isClosed: () => isClosed });
    });
    socket.once("error", reject);
  });
}

/** Writes `chunk` every `everyMs` until the socket closes. */
export function trickle(client: RawClient, chunk: () => string, everyMs: number): void {
  const timer = setInterval(() => {
    if (client.socket.destroyed || !client.socket.writable) clearInterval(timer);
    else client.socket.write(chunk());
  }, everyMs);
  void client.closed.then(() => clearInterval(timer));
}

/** Resolves with the ms it took, or with `Infinity` when `limitMs` passed first. */
export async function within(closed: Promise<number>, limitMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<number>((done) => {
    timer = setTimeout(() => done(Number.POSITIVE_INFINITY), limitMs);
  });
  try {
    return await Promise.race([closed, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET on a fresh connection that is closed after the response (no pooled keep-alive): the
 * status, or the connection error's code (ECONNRESET when the server dropped it at accept).
 */
export function freshGet(url: string, timeoutMs = 3000): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
    });
    req.once("timeout", () =>
      req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })),
    );
    req.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

/** Polls `check` every 20 ms, at most `tries` times, until it holds. */
export async function until(check: () => boolean | Promise<boolean>, tries = 100): Promise<void> {
  for (let i = 0; i < tries && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
}
