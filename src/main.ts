import { Command, CommanderError, InvalidArgumentError } from "commander";
import { configFrom, type GlobalOptions, registerManagementCommands } from "./cli/commands.js";
import { devModeBanner } from "./cli/dev-mode.js";
import { createOutput, EXIT } from "./cli/output.js";
import { removeServerFile, writeServerFile } from "./cli/running-server.js";
import { createLogger } from "./lib/logger.js";

async function readStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError("must be a port number, 0–65535");
  return n;
};

interface ServeOptions {
  port?: number;
  host?: string;
  grpcPort?: number;
  role?: string;
  dev?: boolean;
}

/**
 * The composition root's entry: parses the command line, then config, then builds what the
 * command needs. Returns the process exit code.
 */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const json = argv.includes("--json");
  const output = createOutput(json);
  let exitCode: number = EXIT.ok;
  const program = new Command("vigil")
    .description("Vigil: self-hostable observability for OpenTelemetry traces, logs and metrics")
    .option("--data-dir <dir>", "data directory (default ./data, or VIGIL_DATA_DIR)")
    .option("--config <file>", "JSON config file (or VIGIL_CONFIG)")
    .option("--json", "print one JSON object on stdout")
    .exitOverride()
    .showHelpAfterError("(run vigil --help for usage)");

  program
    .command("serve")
    .description("Start the service (HTTP API, OTLP ingestion) on the configured data dir")
    .option("--port <port>", "port to listen on (default 4318)", port)
    .option("--host <host>", "address to bind (default 127.0.0.1)")
    .option(
      "--grpc-port <port>",
      "OTLP/gRPC port (default 4317; the default one busy only warns, a chosen one busy stops)",
      port,
    )
    .option(
      "--role <role>",
      "what this process runs: all (default), api (HTTP API and ingestion) or worker (monitors, alerts, deliveries)",
    )
    .option(
      "--dev",
      "local development, on a loopback host only (refused otherwise): monitors and webhooks may reach this machine and private addresses, and webhooks may be plain http:// to loopback (never in production)",
    )
    .action(async (opts: ServeOptions) => {
      const config = configFrom(program.opts<GlobalOptions>(), env, opts);
      // Loud and first, on stderr whatever the log format, so it is seen before any log line.
      if (opts.dev) process.stderr.write(devModeBanner());
      // With --json, stdout carries only the ready object; logs go to stderr.
      const logger = createLogger(config.logLevel, json ? process.stderr : undefined);
      if (opts.dev)
        logger.warn(
          "Local development mode (--dev): the SSRF guard is off for monitors and webhooks, and webhooks may be plain http:// to loopback",
        );
      // The server's modules load only for `serve`: the other commands start in a third of the time.
      const { serveUntilSignalled, startService } = await import("./cli/serve.js");
      const service = await startService(config, logger);
      // Tells `vigil demo` and `vigil tql` on this data dir to come through the server.
      writeServerFile(config.dataDir, {
        url: service.url,
        pid: process.pid,
        startedAt: new Date().toISOString(),
      });
      // Signal handlers first: whoever reads the ready line may stop us at once.
      const stopped = serveUntilSignalled(service, logger, config.shutdownTimeoutSeconds);
      const grpc = service.grpcUrl ? `, OTLP/gRPC on ${service.grpcUrl}` : "";
      output.result(
        { url: service.url, grpcUrl: service.grpcUrl, dataDir: config.dataDir },
        `Vigil is listening on ${service.url}${grpc} (data in ${config.dataDir}); ` +
          `dashboard at ${service.url}/`,
      );
      try {
        exitCode = await stopped;
      } finally {
        removeServerFile(config.dataDir);
      }
    });
  registerManagementCommands(program, { env, output, readStdin });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      const helpShown = ["commander.helpDisplayed", "commander.version", "commander.help"].includes(
        error.code,
      );
      return helpShown ? EXIT.ok : output.usage(error.message);
    }
    return output.error(error);
  }
}
