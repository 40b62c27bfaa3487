import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { isIPv6, type Socket } from "node:net";

/**
 * The key a peer's connections count under: an IPv4 address as is, an IPv6 address by its /64
 * (one subscriber's prefix: a host picks any address in it), an IPv4-mapped one as IPv4.
 */
export function addressKey(address: string): string {
  if (!isIPv6(address)) return address;
  const lower = address.toLowerCase();
  if (lower.startsWith("::ffff:") && lower.includes(".")) return lower.slice(7);
  const [head = "", tail] = lower.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  // An embedded IPv4 tail (`::ffff:0:1.2.3.4`, `64:ff9b::1.2.3.4`) stands for two groups.
  const rightGroups = right.length + (right.at(-1)?.includes(".") ? 1 : 0);
  const zeros = Array<string>(Math.max(0, 8 - left.length - rightGroups)).fill("0");
  const groups = [...left, ...zeros, ...right];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(":")}::/64`;
}

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
    const address = addressKey(socket.remoteAddress);
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

const hasBody = (request: IncomingMessage): boolean =>
  request.headers["transfer-encoding"] !== undefined ||
  Number(request.headers["content-length"] ?? 0) > 0;

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
    if (hasBody(request))
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
