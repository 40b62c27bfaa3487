import { PROJECT_COLUMN, TELEMETRY_TABLES } from "./tables.js";

/** `(project_id, a, b)` → "`a`, `b`": the sort order a user of one project sees. */
function sortKeyOf(orderBy: string): string {
  return orderBy
    .replace(/^\(|\)$/g, "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== PROJECT_COLUMN)
    .map((part) => `\`${part}\``)
    .join(", ");
}

/** Renders docs/tql-tables.md from the table definitions, so the page cannot drift from the schema. */
export function renderTqlTablesDoc(): string {
  const lines = [
    "# TQL tables",
    "",
    "<!-- Generated from src/telemetry/tables.ts by `npm run docs:tables`; do not edit by hand. -->",
    "",
    "TQL queries read these six tables. Every query sees only its own project's rows: the",
    `project guard is added by the engine and the \`${PROJECT_COLUMN}\` column itself is not visible.`,
    "",
    "Types are ClickHouse's. Attribute maps hold every value as text: `attributes['http.method']`.",
    "Timestamps are UTC. Rows are kept for the configured retention (default 30 days,",
    "`VIGIL_RETENTION_DAYS`), dropped a day-partition at a time.",
    "",
  ];
  for (const table of TELEMETRY_TABLES) {
    lines.push(
      `## ${table.name}`,
      "",
      table.description,
      "",
      "| column | type | meaning |",
      "|---|---|---|",
    );
    for (const column of table.columns) {
      if (column.name === PROJECT_COLUMN) continue;
      lines.push(
        `| \`${column.name}\` | \`${column.type}\` | ${column.description.replaceAll("|", "\\|")} |`,
      );
    }
    lines.push(
      "",
      `Within a project, rows are sorted by ${sortKeyOf(table.orderBy)}; partitioned by day.${table.readFinal ? " TQL reads the current version of each row (FINAL)." : ""}`,
      "",
    );
  }
  return lines.join("\n");
}
