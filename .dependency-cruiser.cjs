// The import rules of docs/architecture.md, checked by `npm run check:imports` (part of verify).
// Tiers, top to bottom: transports (server/, cli/, composition/, main.ts) → domain verbs →
// ports (telemetry/, meta/) and config/ → lib/ and contracts/. Nothing imports upward; no
// cycles. Tests may import across tiers; the code they test may not.

const { TIERS, pattern } = require("./scripts/architecture-tiers.cjs");

const DOMAINS = pattern(TIERS[1].folders);
const TRANSPORTS = pattern(TIERS[0].folders);
const TESTS = "\\.test\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "lib-imports-nothing-of-ours",
      comment: "lib/ is the leaf tier: it imports only lib/ and packages.",
      severity: "error",
      from: { path: "^src/lib/", pathNot: TESTS },
      to: { path: "^src/", pathNot: "^src/lib/" },
    },
    {
      name: "contracts-are-browser-safe",
      comment: "contracts/ is shared with web/: it imports only contracts/ and zod, no Node code.",
      severity: "error",
      from: { path: "^src/contracts/", pathNot: TESTS },
      to: { pathNot: "^(src/contracts/|node_modules/zod/)" },
    },
    {
      name: "config-imports-only-lib",
      comment: "config/ maps the environment to settings; it knows no domain.",
      severity: "error",
      from: { path: "^src/config/", pathNot: TESTS },
      to: { path: "^src/", pathNot: "^src/(config|lib|contracts)/" },
    },
    {
      name: "ports-import-no-domain",
      comment:
        "The stores (telemetry/, meta/) own their record types; domains map to and from them.",
      severity: "error",
      from: { path: "^src/(telemetry|meta)/", pathNot: TESTS },
      to: { path: "^src/", pathNot: "^src/(telemetry|meta|config|lib|contracts)/" },
    },
    {
      name: "stores-apart",
      comment: "The telemetry store and the metadata store do not know each other.",
      severity: "error",
      from: { path: "^src/(telemetry|meta)/", pathNot: TESTS },
      to: { path: "^src/(telemetry|meta)/", pathNot: "^src/$1/" },
    },
    {
      name: "domains-import-no-transport",
      comment: "Domain verbs are called by transports; they never call up into them.",
      severity: "error",
      from: { path: `^src/${DOMAINS}`, pathNot: TESTS },
      to: { path: `^src/${TRANSPORTS}` },
    },
    {
      name: "no-cycles",
      comment: "A cycle, even of types, means two modules are one: move what both need below them.",
      severity: "error",
      from: { path: "^(src|web/src)/" },
      to: { circular: true },
    },
    {
      name: "web-imports-only-contracts",
      comment: "The browser shares the server's contracts/ and nothing else of src/.",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^src/", pathNot: "^src/contracts/" },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/|^dist/" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
