import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "./config-error.js";
import { crossFieldProblems, devModeProblems } from "./config-problems.js";
import { Config } from "./config-schema.js";
import {
  CONFIG_FILE_VAR,
  closestEnvVar,
  DEV_SETTINGS,
  ENV_VARS,
  OVERRIDES,
} from "./environment.js";

/** A PEM file a setting names (extra CA certificates), read once at start; undefined when unset. */
export function readPemSetting(variable: string, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError([`${variable}: cannot read ${path} (${(error as Error).message})`]);
  }
}

type Raw = Record<string, unknown>;

function setPath(target: Raw, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const child = node[key];
    if (typeof child !== "object" || child === null || Array.isArray(child)) node[key] = {};
    node = node[key] as Raw;
  }
  const last = path.at(-1);
  if (last !== undefined) node[last] = value;
}

function readConfigFile(path: string): Raw {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError([
      `${CONFIG_FILE_VAR}: cannot read ${path} (${(error as Error).message})`,
    ]);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error("not an object");
    return parsed as Raw;
  } catch {
    // JSON.parse messages quote the file's text, which may hold secrets: say only what is wrong.
    throw new ConfigError([`config file ${path}: must hold one valid JSON object`]);
  }
}

export interface ConfigSources {
  env: Readonly<Record<string, string | undefined>>;
  /** A config file path given on the command line; wins over VIGIL_CONFIG. */
  configFile?: string | undefined;
  /** Values from command-line flags; they win over env and file. */
  overrides?: Readonly<{
    dataDir?: string | undefined;
    host?: string | undefined;
    port?: number | undefined;
    grpcPort?: number | undefined;
    role?: string | undefined;
    /** `--dev`: turns on each of DEV_SETTINGS. */
    dev?: boolean | undefined;
  }>;
}

/**
 * Builds the configuration: file, then VIGIL_* env vars, then command-line flags.
 * Throws ConfigError naming each bad field by where it came from (env var or file path).
 */
export function loadConfig(sources: ConfigSources): Config {
  const filePath = sources.configFile ?? sources.env[CONFIG_FILE_VAR];
  const raw: Raw = filePath ? readConfigFile(resolve(filePath)) : {};
  const origin = new Map<string, string>();
  // Names a field the way the user set it (or would): env var, flag, or field of the file.
  const describe = (path: readonly PropertyKey[]) => {
    const key = path.join(".");
    const envVar = Object.entries(ENV_VARS).find(([, p]) => p.join(".") === key)?.[0];
    return (
      origin.get(key) ?? (filePath ? `${key} (in ${filePath})` : (envVar ?? (key || "config")))
    );
  };

  const problems: string[] = [];
  for (const [name, value] of Object.entries(sources.env)) {
    if (!name.startsWith("VIGIL_") || name === CONFIG_FILE_VAR || value === undefined) continue;
    const path = ENV_VARS[name];
    if (!path) {
      const hint = closestEnvVar(name);
      problems.push(`${name}: not a Vigil setting${hint ? ` (did you mean ${hint}?)` : ""}`);
      continue;
    }
    setPath(raw, path, value);
    origin.set(path.join("."), name);
  }
  const { dev, ...overrides } = sources.overrides ?? {};
  if (dev)
    for (const setting of DEV_SETTINGS) {
      setPath(raw, setting.path, true);
      origin.set(setting.path.join("."), "--dev");
    }
  for (const [key, value] of Object.entries(overrides)) {
    const override = OVERRIDES[key];
    if (value === undefined || !override) continue;
    setPath(raw, override.path, value);
    origin.set(override.path.join("."), override.flag);
  }

  const parsed = Config.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys)
          problems.push(`${describe([...issue.path, key])}: unknown setting`);
      } else {
        problems.push(`${describe(issue.path)}: ${issue.message}`);
      }
    }
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const config = parsed.data;
  if (Boolean(config.auth.adminEmail) !== Boolean(config.auth.adminPassword)) {
    const fields = `${describe(["auth", "adminEmail"])} and ${describe(["auth", "adminPassword"])}`;
    throw new ConfigError([`${fields}: set both to create the first admin, or neither`]);
  }
  const crossField = [
    ...crossFieldProblems(config, describe),
    ...(dev ? devModeProblems(config, describe) : []),
  ];
  if (crossField.length > 0) throw new ConfigError(crossField);
  return { ...config, dataDir: resolve(config.dataDir) };
}
