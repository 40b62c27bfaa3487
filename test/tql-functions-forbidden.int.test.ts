/**
 * The function allow-list against chDB's own list: no function that reads outside the query's
 * data (dictionaries, joinGet, files, settings, introspection…) resolves, with or without an
 * aggregate combinator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChdbExecutor } from "../src/telemetry/chdb/chdb-executor.js";
import type { TelemetryExecutor } from "../src/telemetry/executor.js";
import { COMBINATORS, resolveFunction } from "../src/tql/functions.js";
import { UNAVAILABLE_FUNCTIONS } from "../src/tql/functions-doc.js";
import { makeTempDir } from "./helpers/temp-dir.js";

/** The forbidden names of the brief: none may resolve, with or without combinators. */
const FORBIDDEN = [
  "joinGet",
  "joinGetOrNull",
  "dictGet",
  "dictGetString",
  "dictGetOrDefault",
  "dictGetOrNull",
  "dictHas",
  "file",
  "url",
  "s3",
  "remote",
  "input",
  "numbers",
  "generateRandom",
  "getSetting",
  "getSettingOrDefault",
  "currentDatabase",
  "currentUser",
  "currentSchemas",
  "hostName",
  "fqdn",
  "FQDN",
  "version",
  "uptime",
  "tcpPort",
  "getMacro",
  "getServerPort",
  "serverUUID",
  "shardNum",
  "shardCount",
  "filesystemAvailable",
  "filesystemCapacity",
  "filesystemUnreserved",
  "sleep",
  "sleepEachRow",
  "throwIf",
  "getClientHTTPHeader",
  "hasColumnInTable",
  "currentProfiles",
  "currentRoles",
  "enabledRoles",
  "defaultRoles",
  "buildId",
  "revision",
  "zookeeperSessionUptime",
  "initialQueryID",
  "queryID",
  "blockNumber",
  "transactionID",
  "catboostEvaluate",
  "naiveBayesClassifier",
  "addressToLine",
  "addressToSymbol",
  "demangle",
  "trap",
  "getOSKernelVersion",
  "displayName",
  "structureToCapnProtoSchema",
  "globalIn",
  "globalNotIn",
  "dynamicType",
  "runningDifference",
  "neighbor",
  "rowNumberInAllBlocks",
  "arrayReduce",
  "aiGenerate",
  "CAST",
];

/** system.functions categories whose every member reads outside the query's data. */
const FORBIDDEN_CATEGORIES = new Set([
  "AI",
  "Dictionary",
  "Embedded Dictionary",
  "Internal",
  "Introspection",
]);
const FORBIDDEN_PREFIXES =
  /^(dict|joinGet|filesystem|sleep|global|current|getSetting|region|transaction|zookeeper)/;

describe("TQL function registry: what stays out", () => {
  const dir = makeTempDir();
  let executor: TelemetryExecutor;
  let system: { name: string; categories: string }[];

  beforeAll(async () => {
    executor = createChdbExecutor({ path: dir.path, database: "functions_test" });
    system = await executor.query<{ name: string; categories: string }>(
      "SELECT name, categories FROM system.functions",
    );
  });
  afterAll(async () => {
    await executor?.close();
    dir.remove();
  });

  it("rejects functions that reach outside the project's data", () => {
    const unavailable = UNAVAILABLE_FUNCTIONS.flatMap(({ names }) => names).map((name) =>
      name.replace(/\*$/, ""),
    );
    const risky = system
      .filter(
        (row) =>
          row.categories.split(", ").some((category) => FORBIDDEN_CATEGORIES.has(category)) ||
          FORBIDDEN_PREFIXES.test(row.name),
      )
      .map((row) => row.name);
    expect(risky.length).toBeGreaterThan(50);
    for (const name of [...FORBIDDEN, ...unavailable, ...risky]) {
      expect(resolveFunction(name), name).toBeUndefined();
      for (const { suffix } of COMBINATORS)
        expect(resolveFunction(name + suffix), name + suffix).toBeUndefined();
    }
  });
});
