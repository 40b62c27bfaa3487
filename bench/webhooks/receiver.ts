import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ARRIVAL_TIMEOUT_MS, TLS_DIR } from "./settings.js";

// The receiver: an HTTPS keep-alive server in a child process; it exits when our IPC closes.

const RECEIVER_SCRIPT = `
const https = require("node:https");
const fs = require("node:fs");
const { createHmac, timingSafeEqual } = require("node:crypto");
let keys = [];
const seq = [], endpoint = [], attempt = [], at = [];
const firsts = new Set();
let badSignatures = 0, unparsed = 0, lastAt = 0, connections = 0;
let waiters = [];
const answer = (res) => {
  res.writeHead(200, { "content-type": "text/plain", "content-length": "2" });
  res.end("ok");
};
const server = https.createServer(
  { key: fs.readFileSync(process.env.RECEIVER_KEY), cert: fs.readFileSync(process.env.RECEIVER_CERT) },
  (req, res) => {
    const arrived = performance.timeOrigin + performance.now();
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      answer(res);
      const body = Buffer.concat(chunks).toString("utf8");
      const s = /"seq":(\\d+)/.exec(body);
      const a = /"attempt":(\\d+)\\}$/.exec(body);
      const ep = Number((req.url || "").slice("/hook/".length));
      if (!s || !a || !Number.isInteger(ep)) { unparsed++; return; }
      const key = keys[ep];
      if (key) {
        const h = req.headers;
        const expected = Buffer.from("v1," + createHmac("sha256", key)
          .update(h["webhook-id"] + "." + h["webhook-timestamp"] + "." + body).digest("base64"));
        const given = Buffer.from(String(h["webhook-signature"] || ""));
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) badSignatures++;
      }
      const n = Number(s[1]), k = Number(a[1]);
      seq.push(n); endpoint.push(ep); attempt.push(k); at.push(arrived);
      if (k === 1) {
        const id = n * 1024 + ep;
        if (!firsts.has(id)) {
          firsts.add(id);
          lastAt = arrived;
          if (waiters.length > 0) {
            const due = waiters.filter((w) => firsts.size >= w.count);
            waiters = waiters.filter((w) => firsts.size < w.count);
            for (const w of due) process.send({ id: w.id, lastAt, firsts: firsts.size });
          }
        }
      }
    });
  },
);
server.keepAliveTimeout = 30000;
server.headersTimeout = 31000;
server.on("secureConnection", () => connections++);
const stats = () => {
  const cpu = process.cpuUsage();
  return { requests: seq.length, firsts: firsts.size, cpuMicros: cpu.user + cpu.system,
    rss: process.memoryUsage().rss, badSignatures, unparsed, lastAt, connections };
};
process.on("message", (m) => {
  if (m.op === "keys") { keys = m.keys.map((k) => Buffer.from(k, "base64")); process.send({ id: m.id }); }
  else if (m.op === "stats") process.send({ id: m.id, ...stats() });
  else if (m.op === "waitFor") {
    if (firsts.size >= m.count) process.send({ id: m.id, lastAt, firsts: firsts.size });
    else waiters.push({ id: m.id, count: m.count });
  } else if (m.op === "closeIdle") {
    server.closeIdleConnections();
    process.send({ id: m.id });
  } else if (m.op === "collect") {
    const from = m.since;
    process.send({ id: m.id, seq: Float64Array.from(seq.slice(from)),
      endpoint: Float64Array.from(endpoint.slice(from)), attempt: Float64Array.from(attempt.slice(from)),
      at: Float64Array.from(at.slice(from)) });
  }
});
process.on("disconnect", () => process.exit(0));
server.listen(0, "127.0.0.1", () => process.send({ id: 0, port: server.address().port }));
`;

export interface ReceiverStats {
  requests: number;
  /** Distinct (event, endpoint) pairs whose attempt 1 arrived. */
  firsts: number;
  cpuMicros: number;
  rss: number;
  badSignatures: number;
  unparsed: number;
  lastAt: number;
  /** TLS connections accepted so far. */
  connections: number;
}

export interface Arrivals {
  seq: Float64Array;
  endpoint: Float64Array;
  attempt: Float64Array;
  at: Float64Array;
}

export async function startReceiver() {
  const child = spawn(process.execPath, ["-e", RECEIVER_SCRIPT], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    serialization: "advanced",
    env: {
      ...process.env,
      RECEIVER_KEY: fileURLToPath(new URL("receiver.key", TLS_DIR)),
      RECEIVER_CERT: fileURLToPath(new URL("receiver.pem", TLS_DIR)),
    },
  });
  const pending = new Map<number, (reply: Record<string, unknown>) => void>();
  let nextId = 1;
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the receiver exited early (${code})`)));
    child.on("message", (message: Record<string, unknown>) => {
      if (message.id === 0) resolve(message.port as number);
      const waiter = pending.get(message.id as number);
      pending.delete(message.id as number);
      waiter?.(message);
    });
  });
  const call = <T>(op: string, fields: Record<string, unknown> = {}) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, (reply) => resolve(reply as T));
      child.send({ id, op, ...fields });
    });
  return {
    origin: `https://localhost:${port}`,
    setKeys: (keys: Buffer[]) =>
      call<void>("keys", { keys: keys.map((key) => key.toString("base64")) }),
    stats: () => call<ReceiverStats>("stats"),
    /** Resolves when `count` distinct attempt 1s have arrived in all, with the last one's arrival. */
    async waitFor(count: number, timeoutMs = ARRIVAL_TIMEOUT_MS) {
      let timer: NodeJS.Timeout | undefined;
      const reached = call<{ lastAt: number; firsts: number }>("waitFor", { count });
      const timeout = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      });
      const result = await Promise.race([reached, timeout]);
      clearTimeout(timer);
      return result;
    },
    collect: (since: number) => call<Arrivals>("collect", { since }),
    /** Closes the receiver's idle keep-alive connections. */
    closeIdle: () => call<void>("closeIdle"),
    stop() {
      child.disconnect();
      child.kill();
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
