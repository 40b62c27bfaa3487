import { SingleBar } from "cli-progress";
import type { Config } from "../config/config-schema.js";
import type { Ctx } from "../context.js";
import { demoRequests } from "../demo/generator.js";
import { type SendSummary, sendAll } from "../demo/sender.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { createLogger } from "../lib/logger.js";
import { listProjects } from "../projects/projects.js";
import { engineOpenError, findRunningServer, withTemporaryKey } from "./running-server.js";

export interface DemoOptions {
  spans: number;
  url?: string;
  key?: string;
  /** Show a progress bar on stderr. */
  progress: boolean;
}

export interface DemoResult extends SendSummary {
  url: string;
  projectId?: string;
  seconds: number;
}

/**
 * The service started here on a loopback port, with only OTLP/HTTP (no gRPC port that another
 * Vigil may hold). The server's modules load only then, so the other commands start faster.
 */
async function startHere(config: Config) {
  const { startService } = await import("./serve.js");
  return startService(
    { ...config, host: "127.0.0.1", port: 0, grpc: { ...config.grpc, enabled: false } },
    createLogger("warn", process.stderr),
  ).catch((error: unknown) => {
    throw engineOpenError(config, error);
  });
}

/**
 * Sends the demo dataset through the real OTLP endpoint, with a temporary ingest key for the data
 * dir's first project (deleted afterwards): to the server running on this data dir, or else to
 * the service started here on a loopback port. With --url and --key, to that Vigil.
 */
export async function runDemo(config: Config, options: DemoOptions): Promise<DemoResult> {
  if (Boolean(options.url) !== Boolean(options.key)) {
    throw InvalidInputError.forField(
      options.url ? "key" : "url",
      "give --url and --key together, or neither to use the data dir",
    );
  }
  if (options.url && options.key) return send(options.url, options.key, options);

  // The server running on this data dir, or else the service started here on a loopback port.
  const running = await findRunningServer(config.dataDir);
  const service = running ? undefined : await startHere(config);
  const url = running?.url ?? service?.url ?? "";
  try {
    return await withTemporaryKey(
      config,
      (ctx) => firstProject(ctx, config.dataDir),
      { role: "ingest" },
      async (key, projectId) => ({ ...(await send(url, key, options)), projectId }),
    );
  } finally {
    await service?.stop();
  }
}

async function firstProject(ctx: Ctx, dataDir: string): Promise<string> {
  const [project] = await listProjects({ ctx });
  if (!project) {
    throw new InvalidInputError(
      `No project in ${dataDir}: run \`vigil init\` first, or pass --url and --key of a running Vigil`,
    );
  }
  return project.id;
}

async function send(url: string, key: string, options: DemoOptions): Promise<DemoResult> {
  const started = Date.now();
  const bar = options.progress
    ? new SingleBar({
        format:
          "Sending demo data [{bar}] {percentage}% | {value}/{total} spans | {eta_formatted} left",
        stream: process.stderr,
        hideCursor: true,
      })
    : undefined;
  bar?.start(options.spans, 0);
  try {
    const summary = await sendAll(
      demoRequests({
        spans: options.spans,
        batchSpans: 1000,
        windowMs: 2 * 3600_000,
        nowMs: Date.now(),
      }),
      {
        url,
        key,
        concurrency: 4,
        onSent: (r) => (r.signal === "traces" ? bar?.increment(r.items) : undefined),
      },
    );
    return { ...summary, url, seconds: Math.round((Date.now() - started) / 100) / 10 };
  } finally {
    bar?.stop();
  }
}
