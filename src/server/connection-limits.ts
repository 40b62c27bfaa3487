import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { addressBucket } from "../lib/client-address.js";

/**
 * Closes a new connection at once when its peer address (an IPv6 /64) already has `max` open, so
 * one client cannot hold every socket. Counts the direct peer: behind a reverse proxy that is the proxy.
 */
export function capConnectionsPerAddress(
  server: Server,
  max: number,
  onRefused: (address: string) => void = () => {},
): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    // An address is undefined only once the socket is already gone.
    if (socket.remoteAddress === undefined) return;
    const address = addressBucket(socket.remoteAddress);
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      onRefused(address);
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** How many connections below `max` shedding starts: 5 %, at least one. */
export const shedMargin = (max: number): number => Math.max(1, Math.ceil(max / 20));

/** Whether a request announces a body (chunked, or a length above 0). */
export const hasBody = (headers: IncomingHttpHeaders): boolean =>
  headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0;

/**
 * Once `max - shedMargin(max)` connections are open, each new one closes the connection that has
 * waited longest without a whole request in: first among those that never sent one (strangers
 * trickling bytes), then among served ones that are idle or sending a body. A connection whose
 * request is in and being answered is never closed. So new clients and probes get in at the cap,
 * and clients that were served before keep their connections.
 */
export function shedWaitingConnections(
  server: Server,
  max: number,
  onShed: () => void = () => {},
): void {
  if (max <= 0) return;
  const threshold = max - shedMargin(max);
  // Oldest first: a Set iterates in insertion order.
  const fresh = new Set<Socket>();
  const served = new Set<Socket>();
  const answering = (socket: Socket) => {
    fresh.delete(socket);
    served.delete(socket);
  };
  const idle = (socket: Socket) => {
    answering(socket);
    if (!socket.destroyed) served.add(socket);
  };
  let open = 0;
  server.on("connection", (socket: Socket) => {
    // Already closed by an earlier listener (the per-address cap): it holds nothing.
    if (socket.destroyed) return;
    open++;
    fresh.add(socket);
    socket.once("close", () => {
      open--;
      answering(socket);
    });
    if (open <= threshold) return;
    for (const waiting of [fresh, served])
      for (const oldest of waiting) {
        if (oldest === socket) continue;
        answering(oldest);
        oldest.destroy();
        onShed();
        return;
      }
  });
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    // A body still to come keeps the socket waiting where it was; once in, it is being answered.
    if (hasBody(request.headers))
      request.once("end", () => (response.writableFinished ? idle(socket) : answering(socket)));
    else answering(socket);
    // An answer sent before its body was all in (401, 413) leaves the socket waiting for it.
    response.once("finish", () => {
      if (request.complete) idle(socket);
    });
  });
}

/** The connection policy of one listener: a global cap, a per-address cap, shedding near the cap. */
export function limitConnections(
  server: Server,
  limits: { max: number; perAddress: number },
  on: { refused: (address: string) => void; shed: () => void },
): void {
  if (limits.max > 0) server.maxConnections = limits.max;
  // The per-address cap first: a connection it closes holds no place for shedding to count.
  capConnectionsPerAddress(server, limits.perAddress, on.refused);
  shedWaitingConnections(server, limits.max, on.shed);
}
