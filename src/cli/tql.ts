import { createDomainDeps } from "../composition/domain-deps.js";
import { openMetaStore, openTelemetryStore } from "../composition/stores.js";
import type { Config } from "../config/config-schema.js";
import type { Ctx } from "../context.js";
import type { ParameterValue, TqlResult } from "../contracts/tql.js";
import { TQL_MAX_RESULT_ROWS } from "../contracts/tql-dialect.js";
import { DomainError, type ErrorCode, InvalidInputError } from "../lib/domain-errors.js";
import { listProjects } from "../projects/projects.js";
import { createTqlService } from "../tql/tql-service.js";
import { engineOpenError, findRunningServer, withTemporaryKey } from "./running-server.js";

export interface TqlCommandOptions {
  url?: string;
  key?: string;
  /** Project to query on the local data dir; needed when it holds several. */
  project?: string;
  /** Values of the query's `{name:Type}` placeholders, from `--param name=value`. */
  param?: Record<string, ParameterValue>;
}

/**
 * One `--param name=value` (repeatable): the value as text (numbers and booleans are read from
 * text by the placeholder's type), or a list when it is a JSON array (`ids=["a","b"]`).
 */
export function collectParam(
  text: string,
  previous: Record<string, ParameterValue> = {},
): Record<string, ParameterValue> {
  const at = text.indexOf("=");
  if (at < 1) throw InvalidInputError.forField("param", `give name=value, not '${text}'`);
  const name = text.slice(0, at);
  const raw = text.slice(at + 1);
  let value: ParameterValue = raw;
  if (raw.startsWith("[")) {
    let list: unknown;
    try {
      list = JSON.parse(raw);
    } catch {
      list = undefined;
    }
    if (!Array.isArray(list) || !list.every((v) => typeof v === "string" || typeof v === "number"))
      throw InvalidInputError.forField(
        "param",
        `${name}: a list is a JSON array of strings or numbers`,
      );
    value = list as (string | number)[];
  }
  return { ...previous, [name]: value };
}

/**
 * Runs one TQL query: against a running Vigil with --url and --key (the same POST /v1/tql a
 * script would make); else through the server running on this data dir, with a temporary key;
 * else directly on this data dir's engine.
 */
export async function runTql(
  config: Config,
  query: string,
  options: TqlCommandOptions,
): Promise<TqlResult> {
  if (Boolean(options.url) !== Boolean(options.key))
    throw InvalidInputError.forField(
      options.url ? "key" : "url",
      "give --url and --key together, or neither to query the data dir",
    );
  const parameters = options.param ?? {};
  if (options.url && options.key) return remote(options.url, options.key, query, parameters);
  const running = await findRunningServer(config.dataDir);
  if (running) {
    // Least privilege: the temporary key may run TQL and nothing else.
    return withTemporaryKey(
      config,
      (ctx) => chooseProject(ctx, config.dataDir, options.project),
      { permissions: ["tql:query"] },
      (key) => remote(running.url, key, query, parameters),
    );
  }
  const projectId = await localProject(config, options.project);
  const telemetry = await openTelemetryStore(config).catch((error: unknown) => {
    throw engineOpenError(config, error);
  });
  try {
    return await createTqlService({ executor: telemetry, limits: config.tql }).query(
      projectId,
      query,
      { parameters },
    );
  } finally {
    await telemetry.close();
  }
}

async function localProject(config: Config, wanted: string | undefined): Promise<string> {
  const meta = await openMetaStore(config);
  try {
    const deps = createDomainDeps(config, meta, {});
    return await chooseProject({ deps, actor: { kind: "system" } }, config.dataDir, wanted);
  } finally {
    await meta.close();
  }
}

/** The project to query: the one named by --project, or the data dir's only one. */
async function chooseProject(
  ctx: Ctx,
  dataDir: string,
  wanted: string | undefined,
): Promise<string> {
  const projects = await listProjects({ ctx });
  if (wanted !== undefined) {
    const project = projects.find((p) => p.id === wanted || p.name === wanted);
    if (!project)
      throw InvalidInputError.forField(
        "project",
        `no project '${wanted}' in ${dataDir}; known: ${projects.map((p) => `${p.name} (${p.id})`).join(", ") || "none"}`,
      );
    return project.id;
  }
  const [only, ...others] = projects;
  if (!only) throw new InvalidInputError(`No project in ${dataDir}: run \`vigil init\` first`);
  if (others.length > 0)
    throw InvalidInputError.forField(
      "project",
      `${dataDir} holds ${projects.length} projects; choose one with --project (${projects.map((p) => p.id).join(", ")})`,
    );
  return only.id;
}

interface ProblemBody {
  detail?: string;
  code?: string;
  position?: { line: number; column: number };
}

const REMOTE_CODES: readonly ErrorCode[] = [
  "invalid_input",
  "unauthorized",
  "forbidden",
  "rate_limited",
  "query_timeout",
  "query_limit_exceeded",
  "unavailable",
];

async function remote(
  url: string,
  key: string,
  query: string,
  parameters: Record<string, ParameterValue>,
): Promise<TqlResult> {
  const endpoint = new URL("/v1/tql", url);
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ query, parameters }),
    });
  } catch (error) {
    throw new DomainError(
      "unavailable",
      `Cannot reach ${endpoint.origin} (${error instanceof Error ? error.message : String(error)}); is Vigil running there?`,
    );
  }
  if (response.ok) return (await response.json()) as TqlResult;
  const problem = (await response.json().catch(() => ({}))) as ProblemBody;
  const where = problem.position
    ? ` (line ${problem.position.line}, column ${problem.position.column})`
    : "";
  const code = REMOTE_CODES.find((c) => c === problem.code) ?? "internal";
  throw new DomainError(code, `${problem.detail ?? `HTTP ${response.status}`}${where}`);
}

const MAX_CELL = 60;

/** The result as an aligned text table, with a footer giving rows, time and truncation. */
export function formatTable(result: TqlResult): string {
  const header = result.columns.map((column) => column.name);
  const cells = result.rows.map((row) => row.map(cellText));
  const widths = header.map((name, i) =>
    Math.max(name.length, ...cells.map((row) => (row[i] ?? "").length)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i] ?? 0))
      .join(" │ ")
      .trimEnd();
  const rule = widths.map((w) => "─".repeat(w)).join("─┼─");
  const footer = `${result.rowCount} row${result.rowCount === 1 ? "" : "s"} in ${result.durationMs} ms${
    result.truncated ? ` (truncated at ${TQL_MAX_RESULT_ROWS.toLocaleString("en-US")} rows)` : ""
  }`;
  return [line(header), rule, ...cells.map(line), "", footer].join("\n");
}

function cellText(value: unknown): string {
  const text =
    value === null
      ? "NULL"
      : typeof value === "string"
        ? value
        : typeof value === "number" || typeof value === "boolean"
          ? String(value)
          : JSON.stringify(value);
  const flat = text.replace(/\s+/g, " ");
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}
