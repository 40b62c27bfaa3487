import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { SingleBar } from "cli-progress";
import { request } from "undici";
import type { DomainDeps } from "../src/context.js";
import { DEFAULT_ASSERTIONS } from "../src/contracts/monitors.js";
import type { MonitorEngine } from "../src/monitors/engine.js";
import { createMonitor } from "../src/monitors/monitors.js";
import type { StatusPageEngine } from "../src/status-pages/signals.js";

// ---------------------------------------------------------------------------------------------
// The target: a keep-alive JSON API in a child process; it exits when our end of stdin closes.

const TARGET_SCRIPT = `
const http = require("node:http");
const body = JSON.stringify({ ok: true });
let requests = 0;
const server = http.createServer((req, res) => {
  req.resume();
  if (req.url === "/__stats") {
    const cpu = process.cpuUsage();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ requests, cpuMicros: cpu.user + cpu.system, rss: process.memoryUsage().rss }));
    return;
  }
  requests++;
  setTimeout(() => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  }, Math.random() * 20);
});
server.keepAliveTimeout = 30000;
server.headersTimeout = 31000;
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: server.address().port }) + "\\n"));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
`;

export interface TargetStats {
  requests: number;
  cpuMicros: number;
  rss: number;
}

/** The monitors' target: a keep-alive JSON API in a child process (its own event loop). */
export async function startTarget() {
  const child = spawn(process.execPath, ["-e", TARGET_SCRIPT], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the target exited early (${code})`)));
    lines.once("line", (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    async stats(): Promise<TargetStats> {
      const res = await request(`${origin}/__stats`);
      return (await res.body.json()) as TargetStats;
    },
    stop() {
      child.stdin.end();
      child.kill();
    },
  };
}

/**
 * Creates `count` api monitors at 1m against the target through the domain verb, 500 per
 * transaction, with a progress bar: the default assertions plus `$.ok equals true`.
 */
export async function createBenchMonitors(
  domain: DomainDeps & { statusPages: StatusPageEngine },
  engine: MonitorEngine,
  projectId: string,
  targetUrl: string,
  count: number,
): Promise<void> {
  const bar = new SingleBar({
    format: "Creating monitors [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left",
    stream: process.stderr,
    hideCursor: true,
  });
  bar.start(count, 0);
  for (let from = 0; from < count; from += 500) {
    await domain.meta.transaction(async (tx) => {
      const monitors = { engine, allowPrivateTargets: true };
      const ctx = { deps: { ...domain, meta: tx, monitors }, actor: { kind: "system" as const } };
      for (let i = from; i < Math.min(count, from + 500); i++)
        await createMonitor({
          ctx,
          projectId,
          input: {
            name: `bench api ${i}`,
            type: "api",
            frequency: "1m",
            steps: [
              {
                url: `${targetUrl}?monitor=${i}`,
                assertions: [
                  ...DEFAULT_ASSERTIONS,
                  { type: "json_path", path: "$.ok", operator: "equals", value: "true" },
                ],
              },
            ],
          },
        });
    });
    bar.update(Math.min(count, from + 500));
  }
  bar.stop();
}
