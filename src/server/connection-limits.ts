import type { Server } from "node:http";
import type { Socket } from "node:net";

/**
 * Closes a new connection at once when its peer address already has `max` open, so one client
 * cannot hold every socket. Counts the direct peer: behind a reverse proxy that is the proxy.
 */
export function capConnectionsPerAddress(
  server: Server,
  max: number,
  onRefused: (address: string) => void = () => {},
): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    // An address is undefined only once the socket is already gone.
    if (address === undefined) return;
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
