// The tiers of src/, top to bottom: the one list .dependency-cruiser.cjs enforces and
// scripts/write-architecture-doc.mjs draws into docs/architecture.md.
/** @type {{ name: string; what: string; folders: string[] }[]} */
const TIERS = [
  {
    name: "transports",
    what: "validate input, build a ctx, call one verb, map its errors",
    folders: ["main.ts", "composition", "server", "cli"],
  },
  {
    name: "domains",
    what: "verbs `verb({ ctx, ...input })`, pure state functions, registries",
    folders: [
      "setup",
      "demo",
      "dashboards",
      "explore",
      "alerts",
      "monitors",
      "escalation",
      "status-pages",
      "incidents",
      "notifications",
      "webhooks",
      "auth",
      "projects",
      "read",
      "tql",
      "ingest",
      "events",
      "context.ts",
    ],
  },
  {
    name: "ports",
    what: "the two stores (each owning its record types) and the settings",
    folders: ["meta", "telemetry", "config"],
  },
  {
    name: "leaves",
    what: "import nothing of ours (contracts/ is shared with web/)",
    folders: ["lib", "contracts"],
  },
];

const pattern = (folders) =>
  `(${folders.map((f) => f.replace(/\./g, "\\.").replace(/-/g, "\\-")).join("|")})`;

module.exports = { TIERS, pattern };
