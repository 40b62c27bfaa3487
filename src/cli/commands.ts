import { type Command, InvalidArgumentError } from "commander";
import { createApiKey, listApiKeys, revokeApiKey } from "../auth/api-keys.js";
import { createUser } from "../auth/users.js";
import { createDomainDeps } from "../composition/domain-deps.js";
import { openMetaStore } from "../composition/stores.js";
import type { Config } from "../config/config-schema.js";
import { loadConfig } from "../config/load-config.js";
import { type Ctx, type DomainDeps, systemCtx } from "../context.js";
import { ApiKeyRole, MemberRole } from "../contracts/auth.js";
import { InvalidInputError } from "../lib/domain-errors.js";
import { createProject } from "../projects/projects.js";
import { initialize } from "../setup/initialize.js";
import { runDemo } from "./demo.js";
import type { Output } from "./output.js";
import { collectParam, formatTable, runTql, type TqlCommandOptions } from "./tql.js";

export interface GlobalOptions {
  dataDir?: string;
  config?: string;
  json?: boolean;
}

export interface CliEnv {
  env: Readonly<Record<string, string | undefined>>;
  output: Output;
  /** Reads all of standard input (for --password-stdin). */
  readStdin: () => Promise<string>;
}

interface PasswordOptions {
  password?: string;
  passwordStdin?: boolean;
}

/** The password from --password-stdin (first line of stdin, kept out of `ps`) or --password. */
async function passwordFrom(opts: PasswordOptions, cli: CliEnv): Promise<string> {
  if (opts.passwordStdin && opts.password !== undefined) {
    throw InvalidInputError.forField("password", "give --password or --password-stdin, not both");
  }
  if (opts.passwordStdin) return (await cli.readStdin()).split(/\r?\n/)[0] ?? "";
  if (opts.password !== undefined) return opts.password;
  throw InvalidInputError.forField("password", "give --password-stdin (recommended) or --password");
}

export function configFrom(
  globals: GlobalOptions,
  env: CliEnv["env"],
  overrides: {
    host?: string | undefined;
    port?: number | undefined;
    grpcPort?: number | undefined;
    role?: string | undefined;
    dev?: boolean | undefined;
  } = {},
): Config {
  return loadConfig({
    env,
    configFile: globals.config,
    overrides: { dataDir: globals.dataDir, ...overrides },
  });
}

/** Runs fn with the metadata store of the configured data dir (the CLI acts as the operator). */
async function withMeta<T>(
  globals: GlobalOptions,
  cli: CliEnv,
  fn: (deps: DomainDeps, ctx: Ctx) => Promise<T>,
): Promise<T> {
  const config = configFrom(globals, cli.env);
  const meta = await openMetaStore(config);
  try {
    const deps = createDomainDeps(config, meta, {});
    return await fn(deps, { deps, actor: { kind: "system" } });
  } finally {
    await meta.close();
  }
}

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000_000)
    throw new InvalidArgumentError("must be a whole number from 1 to 100000000");
  return n;
};

const oneOf = (values: readonly string[]) => (value: string) => {
  if (!values.includes(value))
    throw new InvalidArgumentError(`must be one of ${values.join(", ")}`);
  return value;
};

/** Registers the management commands (everything but serve) on the program. */
export function registerManagementCommands(program: Command, cli: CliEnv): void {
  const globals = () => program.opts<GlobalOptions>();
  const { output } = cli;

  program
    .command("init")
    .description("Set up an empty data dir: organization, project, owner and a full API key")
    .requiredOption("--email <email>", "the owner's email")
    .option("--password <password>", "the owner's password, 8+ characters (visible to `ps`)")
    .option("--password-stdin", "read the password from the first line of standard input")
    .option("--org <name>", "organization name", "Default")
    .option("--project <name>", "first project's name", "default")
    .action(async (opts: PasswordOptions & { email: string; org: string; project: string }) => {
      const password = await passwordFrom(opts, cli);
      const result = await withMeta(globals(), cli, (deps) =>
        initialize({
          ctx: systemCtx(deps),
          input: {
            email: opts.email,
            password,
            org: opts.org,
            project: opts.project,
          },
        }),
      );
      // The same object as --json, readable: the README shows it, and scripts can still parse it.
      output.result(
        result,
        [
          JSON.stringify(result, null, 2),
          "The API key (full access) is shown once: keep it now. Send it as the x-api-key header;",
          "OpenTelemetry SDKs take it as OTEL_EXPORTER_OTLP_HEADERS=x-api-key=<key>.",
        ].join("\n"),
      );
    });

  program
    .command("migrate")
    .description("Bring the metadata store's schema up to date (serve does this too)")
    .action(async () => {
      await withMeta(globals(), cli, async () => undefined);
      output.result({ migrated: true }, "Metadata store is up to date.");
    });

  const users = program.command("users").description("Manage users");
  users
    .command("create")
    .description("Create a user; the first one also gets a new organization, as its owner")
    .requiredOption("--email <email>", "email to sign in with")
    .option("--password <password>", "password, 8+ characters (visible to `ps`)")
    .option("--password-stdin", "read the password from the first line of standard input")
    .option("--name <name>", "display name")
    .option("--org <id>", "organization to join (needed when several exist)")
    .option("--new-org <name>", "create a new organization owned by this user")
    .option(
      "--role <role>",
      `role in the organization: ${MemberRole.options.join(", ")}`,
      oneOf(MemberRole.options),
    )
    .action(
      async (
        opts: PasswordOptions & {
          email: string;
          name?: string;
          org?: string;
          newOrg?: string;
          role?: MemberRole;
        },
      ) => {
        const password = await passwordFrom(opts, cli);
        const created = await withMeta(globals(), cli, (_deps, ctx) =>
          createUser({
            ctx,
            input: {
              email: opts.email,
              password,
              name: opts.name,
              orgId: opts.org,
              newOrg: opts.newOrg,
              role: opts.role,
            },
          }),
        );
        output.result(
          {
            userId: created.user.id,
            email: created.user.email,
            orgId: created.orgId,
            role: created.role,
          },
          `Created user ${created.user.email} (${created.user.id}), ${created.role} of ${created.orgId}.`,
        );
      },
    );

  const projects = program.command("projects").description("Manage projects");
  projects
    .command("create")
    .description("Create a project in an organization")
    .requiredOption("--org <id>", "organization id")
    .requiredOption("--name <name>", "project name")
    .action(async (opts: { org: string; name: string }) => {
      const project = await withMeta(globals(), cli, (_deps, ctx) =>
        createProject({ ctx, input: { name: opts.name, orgId: opts.org } }),
      );
      output.result(
        { projectId: project.id, orgId: project.orgId, name: project.name },
        `Created project ${project.name} (${project.id}).`,
      );
    });

  program
    .command("demo")
    .description(
      "Send a realistic multi-service demo dataset (traces, logs, errors, AI spans, host metrics) through the OTLP endpoint",
    )
    .option("--spans <n>", "spans to generate (about)", positiveInt, 10_000)
    .option("--url <url>", "a running Vigil to send to (default: start one on this data dir)")
    .option("--key <key>", "an API key with the ingest permission, with --url")
    .action(async (opts: { spans: number; url?: string; key?: string }) => {
      const g = globals();
      const result = await runDemo(configFrom(g, cli.env), {
        ...opts,
        progress: !g.json && process.stderr.isTTY === true,
      });
      output.result(
        result,
        `Sent ${result.items.traces} spans, ${result.items.logs} log records and ${result.items.metrics} metric points to ${result.url} in ${result.seconds} s` +
          (result.projectId ? ` (project ${result.projectId})` : ""),
      );
    });

  program
    .command("tql")
    .description("Run a TQL query and print the result as a table")
    .argument("<query>", 'one SELECT, e.g. "SELECT count() FROM traces"')
    .option("--url <url>", "a running Vigil to query (default: this data dir's engine)")
    .option("--key <key>", "an API key with the tql:query permission, with --url")
    .option("--project <id>", "project to query on the data dir (id or name; needed when several)")
    .option("--param <name=value>", "a value for {name:Type} in the query (repeat)", collectParam)
    .action(async (query: string, opts: TqlCommandOptions) => {
      const result = await runTql(configFrom(globals(), cli.env), query, opts);
      output.result(result, formatTable(result));
    });

  const keys = program.command("keys").description("Manage API keys");
  keys
    .command("create")
    .description("Create an API key; its secret is printed once")
    .requiredOption("--project <id>", "project id")
    .requiredOption(
      "--role <role>",
      `one of ${ApiKeyRole.options.join(", ")}`,
      oneOf(ApiKeyRole.options),
    )
    .option("--name <name>", "what the key is for", "API key")
    .action(async (opts: { project: string; role: ApiKeyRole; name: string }) => {
      const created = await withMeta(globals(), cli, (_deps, ctx) =>
        createApiKey({ ctx, projectId: opts.project, input: { name: opts.name, role: opts.role } }),
      );
      output.result(
        {
          id: created.id,
          key: created.key,
          projectId: created.projectId,
          role: created.role,
          permissions: created.permissions,
        },
        `Created ${created.role} key ${created.id}. Secret (shown once): ${created.key}`,
      );
    });
  keys
    .command("list")
    .description("List a project's API keys (never their secrets)")
    .requiredOption("--project <id>", "project id")
    .action(async (opts: { project: string }) => {
      const list = await withMeta(globals(), cli, (_deps, ctx) =>
        listApiKeys({ ctx, projectId: opts.project }),
      );
      const lines = list.map(
        (k) =>
          `${k.id}  ${k.prefix}…  ${k.role.padEnd(9)}  ${k.revokedAt ? "revoked" : "active "}  ${k.name}`,
      );
      output.result({ keys: list }, lines.length > 0 ? lines.join("\n") : "No API keys.");
    });
  keys
    .command("revoke")
    .description("Revoke an API key; requests with it answer 401 from then on")
    .argument("<keyId>", "the key's id (key_…)")
    .action(async (keyId: string) => {
      const revoked = await withMeta(globals(), cli, (_deps, ctx) => revokeApiKey({ ctx, keyId }));
      output.result({ id: revoked.id, revokedAt: revoked.revokedAt }, `Revoked ${revoked.id}.`);
    });
}
