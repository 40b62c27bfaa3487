import { request } from "node:http";
import { connect, createServer, type Socket } from "node:net";
import { type Latencies, latencies, openLoop, round } from "../harness/http-load.js";
import { log, sleep } from "../harness/run.js";
import { benchEnv, startServer } from "../harness/serve-process.js";
import { ADDRESSES, CONNECTIONS, newDataDir, phase } from "./setup.js";

/** A free TCP port on loopback, for the admin port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** GET /healthz on a new connection; true when it answers 200 within 5 s. */
export function healthz(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/healthz", agent: false, timeout: 5000 },
      (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode === 200));
      },
    );
    req.once("timeout", () => req.destroy());
    req.once("error", () => resolve(false));
    req.end();
  });
}

export interface HealthShare {
  probes: number;
  answered: number;
  share: number;
  latency: Latencies;
}

/** /healthz 10 times a second for `seconds` on each port: the share answered and how fast. */
export async function probeHealth(
  ports: { main: number; admin: number },
  seconds: number,
): Promise<{ main: HealthShare; admin: HealthShare }> {
  const [main, admin] = await Promise.all(
    [ports.main, ports.admin].map(async (port) => {
      const times: number[] = [];
      let answered = 0;
      await openLoop(10, seconds, async () => {
        const started = performance.now();
        const ok = await healthz(port);
        if (ok) {
          answered++;
          times.push(performance.now() - started);
        }
        return ok;
      });
      const probes = Math.round(10 * seconds);
      return {
        probes,
        answered,
        share: round(answered / probes, 4),
        latency: latencies(Float64Array.from(times)),
      };
    }),
  );
  return { main: main as HealthShare, admin: admin as HealthShare };
}

/**
 * Holds `count` connections from `addresses` loopback addresses, each sending a request's
 * headers with a body it never finishes (one byte a second). A connection the server closes
 * comes back a second later, as an attacker's would. Resolves a stop function and the counts.
 */
export function holdConnections(port: number, key: string, count: number, addresses: number) {
  let stopped = false;
  const open = new Set<Socket>();
  let opened = 0;
  let closedByServer = 0;
  const head =
    `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${key}\r\n` +
    "content-type: application/json\r\ncontent-length: 1000000\r\n\r\n{";
  const one = (n: number) => {
    if (stopped) return;
    const socket = connect({
      host: "127.0.0.1",
      port,
      localAddress: `127.0.0.${2 + (n % addresses)}`,
    });
    opened++;
    open.add(socket);
    let drip: NodeJS.Timeout | undefined;
    socket.once("connect", () => {
      socket.write(head);
      drip = setInterval(() => socket.write(" "), 1000);
    });
    socket.on("error", () => {});
    socket.on("data", () => {});
    socket.once("close", () => {
      clearInterval(drip);
      open.delete(socket);
      if (stopped) return;
      closedByServer++;
      setTimeout(() => one(n), 1000).unref();
    });
  };
  // 2,000 a second: the attack builds up in a few seconds, not in one burst of SYNs.
  let next = 0;
  const opener = setInterval(() => {
    for (let i = 0; i < 200 && next < count; i++) one(next++);
    if (next >= count) clearInterval(opener);
  }, 100);
  return {
    stats: () => ({ open: open.size, opened, closedByServer }),
    stop: () => {
      stopped = true;
      clearInterval(opener);
      for (const socket of open) socket.destroy();
    },
  };
}

export async function connectionsAttack() {
  log(`connections: ${CONNECTIONS} held connections from ${ADDRESSES} addresses beside /healthz`);
  const adminPort = await freePort();
  const env = benchEnv({ VIGIL_ADMIN_PORT: String(adminPort) });
  const data = newDataDir(env);
  const server = await startServer(data.dir, env);
  try {
    const port = Number(new URL(server.url).port);
    const ports = { main: port, admin: adminPort };
    const control = await probeHealth(ports, phase(15));
    log(`  control: ${JSON.stringify(control)}`);
    const attacker = holdConnections(port, data.apiKey, CONNECTIONS, ADDRESSES);
    await sleep(8000);
    const building = attacker.stats();
    const attack = await probeHealth(ports, phase(40));
    const held = attacker.stats();
    attacker.stop();
    log(
      `  attack (${JSON.stringify(building)} after 8 s, ${JSON.stringify(held)} at the end): ${JSON.stringify(attack)}`,
    );
    return {
      connections: CONNECTIONS,
      addresses: ADDRESSES,
      attacker: held,
      control,
      attack,
    };
  } finally {
    await server.stop();
    data.remove();
  }
}
