import { isLoopbackHost } from "../lib/http/address-policy.js";
import type { Config } from "./config-schema.js";

/** Names a setting the way the user set it (or would): env var, flag, or field of the file. */
export type DescribeSetting = (path: readonly PropertyKey[]) => string;

/** Settings that are each valid alone but not together. */
export function crossFieldProblems(config: Config, describe: DescribeSetting): string[] {
  const { http, ingest, tql } = config;
  const problems: string[] = [];
  if (http.headersTimeoutSeconds > http.requestTimeoutSeconds)
    problems.push(
      `${describe(["http", "headersTimeoutSeconds"])}: must not exceed ${describe(["http", "requestTimeoutSeconds"])} (${http.requestTimeoutSeconds})`,
    );
  // A per-address cap at the global one lets a few addresses hold every connection.
  if (
    http.maxConnections > 0 &&
    http.maxConnectionsPerAddress > 0 &&
    http.maxConnectionsPerAddress >= http.maxConnections
  )
    problems.push(
      `${describe(["http", "maxConnectionsPerAddress"])}: must be below ${describe(["http", "maxConnections"])} (${http.maxConnections}), or be 0`,
    );
  if (http.adminPort !== undefined && http.adminPort !== 0 && http.adminPort === config.port)
    problems.push(`${describe(["http", "adminPort"])}: must differ from ${describe(["port"])}`);
  if (http.idleTimeoutSeconds > 0 && http.idleTimeoutSeconds <= tql.maxExecutionSeconds)
    problems.push(
      `${describe(["http", "idleTimeoutSeconds"])}: must exceed ${describe(["tql", "maxExecutionSeconds"])} (${tql.maxExecutionSeconds}), or be 0`,
    );
  if (ingest.maxInflightBytes < 2 * ingest.maxBodyBytes)
    problems.push(
      `${describe(["ingest", "maxInflightBytes"])}: must be at least twice ${describe(["ingest", "maxBodyBytes"])} (${2 * ingest.maxBodyBytes})`,
    );
  problems.push(...telemetryProblems(config.telemetry, describe));
  if (config.role !== "all") {
    // Split roles share their work through the stores: per-process ones would divide nothing.
    const meta = config.meta.url?.startsWith("postgres") === true;
    const missing = [
      ...(meta ? [] : [`${describe(["meta", "url"])} (PostgreSQL)`]),
      ...(config.telemetry.url ? [] : [`${describe(["telemetry", "url"])} (a ClickHouse server)`]),
    ];
    if (missing.length > 0)
      problems.push(
        `${describe(["role"])}: ${config.role} nodes share metadata and telemetry with the other nodes: set ${missing.join(" and ")}, or run one process with role all`,
      );
  }
  return problems;
}

/**
 * `--dev` turns the SSRF guard off, which is safe only when nobody else can reach the server:
 * the addresses it listens on (HTTP, and OTLP/gRPC's own host when set) must be loopback.
 */
export function devModeProblems(config: Config, describe: DescribeSetting): string[] {
  const hosts: [readonly string[], string | undefined][] = [
    [["host"], config.host],
    [["grpc", "host"], config.grpc.enabled ? config.grpc.host : undefined],
  ];
  return hosts.flatMap(([path, host]) =>
    host === undefined || isLoopbackHost(host)
      ? []
      : [
          `${describe(path)}: --dev (local development, SSRF guard off) listens on a loopback address only: 127.0.0.1, ::1 or localhost (it is ${host}); start without --dev on an address others can reach`,
        ],
  );
}

/** Settings of the ClickHouse server adapter that mean nothing without its URL, or with http://. */
function telemetryProblems(telemetry: Config["telemetry"], describe: DescribeSetting): string[] {
  const name = (field: string) => describe(["telemetry", field]);
  const url = name("url");
  const problems: string[] = [];
  if (telemetry.url === undefined) {
    for (const field of ["cluster", "password", "caFile"] as const)
      if (telemetry[field] !== undefined)
        problems.push(
          `${name(field)}: applies to a ClickHouse server only; set ${url} too, or leave it unset for the embedded engine`,
        );
  } else if (telemetry.caFile !== undefined && !telemetry.url.startsWith("https:"))
    problems.push(`${name("caFile")}: needs an https:// ${url} (it is ${telemetry.url})`);
  return problems;
}
