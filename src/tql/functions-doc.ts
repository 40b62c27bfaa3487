import type { FunctionCategory, FunctionDef } from "./functions/function-def.js";
import { COMBINATORS, FUNCTIONS } from "./functions.js";

/** Section titles and introductions, in page order. */
const CATEGORIES: readonly { category: FunctionCategory; title: string; intro: string }[] = [
  {
    category: "aggregate",
    title: "Aggregate functions",
    intro:
      "Summarize the rows of each GROUP BY group, or of the whole result. Each of them also takes the combinators below (`countIf`, `sumArray`, ...).",
  },
  {
    category: "date",
    title: "Dates and times",
    intro: "Time zones are names such as `'Europe/Paris'`.",
  },
  { category: "string", title: "Strings", intro: "Positions and offsets are 1-based." },
  {
    category: "regex",
    title: "Regular expressions and patterns",
    intro: "Regular expressions use the re2 syntax; LIKE patterns use `%` and `_`.",
  },
  {
    category: "array",
    title: "Arrays",
    intro:
      "Arrays are 1-based. Higher-order functions take a lambda first: `arrayMap(x -> x * 2, arr)`.",
  },
  {
    category: "map",
    title: "Maps",
    intro: "Attribute columns are `Map(String, String)`; `attributes['key']` reads one value.",
  },
  { category: "json", title: "JSON", intro: "These parse JSON held in String values." },
  {
    category: "math",
    title: "Arithmetic and math",
    intro: "The operators `+ - * / %` are `plus`, `minus`, `multiply`, `divide`, `modulo`.",
  },
  {
    category: "conditional",
    title: "Conditions, comparison and logic",
    intro: "`=`, `!=`, `<`, `AND`, `NOT`, `IN` and the other operators are forms of these.",
  },
  {
    category: "conversion",
    title: "Type conversion",
    intro: "Conversions between ClickHouse types.",
  },
  { category: "tuple", title: "Tuples", intro: "Tuples group values of different types." },
  { category: "hash", title: "Hashes", intro: "Non-cryptographic hashes first, then digests." },
  {
    category: "url",
    title: "URLs",
    intro: "These parse URLs held in String values; nothing is fetched.",
  },
  {
    category: "ip",
    title: "IP addresses",
    intro: "Parsing and formatting of IPv4 and IPv6 addresses.",
  },
  { category: "other", title: "Other", intro: "Formatting, UUIDs and random numbers." },
];

/** What each combinator does, for the docs page and the schema the editor completes from. */
export const COMBINATOR_DOCS: Readonly<Record<string, { example: string; meaning: string }>> = {
  If: {
    example: "`countIf(status = 'error')`, `sumIf(duration_ms, span_kind = 'server')`",
    meaning: "Aggregates only the rows where the extra last argument, a condition, is true.",
  },
  Array: {
    example: "`sumArray(values)`, `uniqArray(tags)`",
    meaning: "Takes arrays and aggregates all of their elements.",
  },
  ForEach: {
    example: "`sumForEach(values)`",
    meaning: "Takes arrays and aggregates them position by position, returning an array.",
  },
  Distinct: {
    example: "`countDistinct(user_id)`, `sumDistinct(x)`",
    meaning: "Aggregates each distinct value (or combination of arguments) once.",
  },
  OrNull: {
    example: "`avgOrNull(x)`",
    meaning: "Returns NULL when there is nothing to aggregate.",
  },
  OrDefault: {
    example: "`maxOrDefault(x)`",
    meaning:
      "Returns the default value of the result type (0, '') when there is nothing to aggregate.",
  },
};

/** Function families TQL leaves out on purpose, and why. Names are ClickHouse's. */
export const UNAVAILABLE_FUNCTIONS: readonly { names: readonly string[]; reason: string }[] = [
  {
    names: [
      "joinGet",
      "joinGetOrNull",
      "dictGet*",
      "dictHas",
      "dictIsIn",
      "globalIn",
      "globalNotIn",
    ],
    reason: "read tables or dictionaries outside your project's data",
  },
  {
    names: [
      "file",
      "url",
      "s3",
      "remote",
      "input",
      "numbers",
      "generateRandom",
      "aiGenerate",
      "aiClassify",
      "aiExtract",
      "aiTranslate",
      "aiEmbed",
    ],
    reason:
      "table functions and functions that read the server's files or the network; a query reads only the TQL tables",
  },
  {
    names: [
      "getSetting",
      "getSettingOrDefault",
      "getMacro",
      "getServerPort",
      "getClientHTTPHeader",
      "currentDatabase",
      "currentUser",
      "currentSchemas",
      "currentProfiles",
      "currentRoles",
      "enabledRoles",
      "defaultRoles",
      "hostName",
      "fqdn",
      "version",
      "uptime",
      "tcpPort",
      "serverUUID",
      "shardNum",
      "shardCount",
      "buildId",
      "revision",
      "getOSKernelVersion",
      "displayName",
      "filesystemAvailable",
      "filesystemCapacity",
      "filesystemUnreserved",
      "zookeeperSessionUptime",
      "hasColumnInTable",
    ],
    reason: "describe the server, its settings, users or storage rather than your data",
  },
  {
    names: ["queryID", "initialQueryID", "blockNumber", "transactionID", "rowNumberInAllBlocks"],
    reason: "expose the engine's internal query and block state",
  },
  {
    names: ["sleep", "sleepEachRow", "throwIf"],
    reason: "stall the shared engine or fail on purpose",
  },
  {
    names: [
      "addressToLine",
      "addressToSymbol",
      "demangle",
      "trap",
      "catboostEvaluate",
      "naiveBayesClassifier",
    ],
    reason: "inspect the engine's own code or load model files from the server",
  },
];

/** `2`, `1–3`, `1+`. */
function range(min: number, max: number): string {
  if (max === Number.POSITIVE_INFINITY) return `${min}+`;
  return min === max ? `${min}` : `${min}–${max}`;
}

/** How many arguments a call takes: `2`, `(0–1)(1)`, `1+, lambda first`. */
export function argumentsCell(def: FunctionDef): string {
  const args = range(def.minArgs, def.maxArgs);
  const list = def.params ? `(${range(def.params.min, def.params.max)})(${args})` : args;
  return def.lambda ? `${list}, lambda first` : list;
}

function row(def: FunctionDef): string[] {
  const name = `\`${def.name}\`${def.caseInsensitive ? " (any case)" : ""}`;
  return [name, argumentsCell(def), def.description];
}

/** A markdown table with padded columns, the layout Biome's formatter gives it. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const cells = [header, ...rows].map((cols) => cols.map((cell) => cell.replaceAll("|", "\\|")));
  const widths = header.map((_, i) =>
    Math.max(3, ...cells.map((cols) => [...(cols[i] ?? "")].length)),
  );
  const line = (cols: readonly string[]) =>
    `| ${widths.map((width, i) => pad(cols[i] ?? "", width)).join(" | ")} |`;
  const [head, ...body] = cells;
  return [line(head ?? []), line(widths.map((width) => "-".repeat(width))), ...body.map(line)];
}

function pad(text: string, width: number): string {
  return text + " ".repeat(width - [...text].length);
}

/** Renders docs/tql-functions.md from the registry, so the page cannot drift from it. */
export function renderTqlFunctionsDoc(): string {
  const lines = [
    "# TQL functions",
    "",
    "<!-- Generated from src/tql/functions.ts by `npm run docs:functions`; do not edit by hand. -->",
    "",
    `TQL queries may call the ${FUNCTIONS.length} functions below; any other name is rejected before the query`,
    "runs. They are ClickHouse functions and behave as the ClickHouse documentation describes.",
    "",
    "Names are case-sensitive, except those marked _(any case)_. The arguments column gives how many",
    "arguments a call takes: `2`, `1–3`, or `1+` for one or more. Parametric aggregates take a",
    "parameter list first, shown as `(parameters)(arguments)`: `quantile(0.95)(duration_ms)` matches",
    "`(0–1)(1)`, and `quantile(duration_ms)` (the median) is allowed because the parameter is optional.",
    "",
    ...CATEGORIES.flatMap(({ category, title, intro }) => [
      `## ${title}`,
      "",
      intro,
      "",
      ...table(
        ["function", "arguments", "description"],
        FUNCTIONS.filter((def) => def.category === category).map(row),
      ),
      "",
    ]),
    "## Combinators",
    "",
    "A suffix on an aggregate function's name changes how it aggregates. Suffixes stack, the last",
    "one applying outermost: `sumArrayIf(values, cond)`, `uniqExactIf(user_id, cond)`,",
    "`quantileIf(0.9)(duration_ms, cond)`, `avgOrNullIf(x, cond)`. They apply to aggregate functions",
    "only, and are written in this exact case (`countIf`, not `COUNTIF`).",
    "",
    ...table(
      ["suffix", "example", "meaning"],
      COMBINATORS.map(({ suffix }) => {
        const doc = COMBINATOR_DOCS[suffix];
        return [`\`-${suffix}\``, doc?.example ?? "", doc?.meaning ?? ""];
      }),
    ),
    "",
    "## Not available",
    "",
    "Every function not listed above is unavailable. Among them, these are left out on purpose:",
    "",
    ...UNAVAILABLE_FUNCTIONS.map(
      ({ names, reason }) => `- ${names.map((name) => `\`${name}\``).join(", ")}: ${reason}.`,
    ),
    "",
  ];
  return lines.join("\n");
}
