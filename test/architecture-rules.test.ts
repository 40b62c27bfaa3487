import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without types
import { checkArchitecture } from "../scripts/check-architecture.mjs";

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, "..");
const depcruise = join(repo, "node_modules", ".bin", "depcruise");
const trees: string[] = [];

/** A throwaway tree with the given files (path → text) and the repository's tsconfig. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "vigil-arch-"));
  trees.push(root);
  const all = {
    "tsconfig.json": JSON.stringify({
      compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true },
      include: ["src", "web"],
    }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The rule names the import check reports for the tree (none: it passes). */
async function importFindings(root: string): Promise<string[]> {
  const args = [
    "src",
    "web",
    "--config",
    join(repo, ".dependency-cruiser.cjs"),
    "--output-type",
    "err",
  ];
  try {
    await run(depcruise, args, { cwd: root });
    return [];
  } catch (error) {
    const out = String((error as { stdout?: string }).stdout);
    return [...out.matchAll(/error (\S+):/g)].map((m) => m[1] ?? "");
  }
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("the import check (npm run check:imports)", () => {
  const clean = {
    "src/lib/clock.ts": "export const now = (): number => Date.now();\n",
    "src/meta/repositories/monitors.ts":
      'import { now } from "../../lib/clock.js";\nexport interface MonitorRecord { id: string }\nexport const stamp = now;\n',
    "src/monitors/monitors.ts":
      'import type { MonitorRecord } from "../meta/repositories/monitors.js";\nexport const ids = (r: MonitorRecord[]) => r.map((m) => m.id);\n',
    "src/server/routes.ts":
      'import { ids } from "../monitors/monitors.js";\nexport const route = ids;\n',
    "src/contracts/monitors.ts": "export type MonitorView = { id: string };\n",
    "web/src/api.ts":
      'import type { MonitorView } from "../../src/contracts/monitors.js";\nexport type V = MonitorView;\n',
  };

  it("passes a tree whose imports point down", async () => {
    expect(await importFindings(tree(clean))).toEqual([]);
  });

  it("fails on a store that imports a domain, even for a type", async () => {
    const root = tree({
      ...clean,
      "src/meta/repositories/alerts.ts":
        'import type { MonitorRecord } from "../../meta/repositories/monitors.js";\nimport type { ids } from "../../monitors/monitors.js";\nexport type A = MonitorRecord | typeof ids;\n',
    });
    expect(await importFindings(root)).toEqual(["ports-import-no-domain"]);
  });

  it("fails on one store importing the other", async () => {
    const root = tree({
      ...clean,
      "src/telemetry/tables.ts": "export const TABLES = ['spans'];\n",
      "src/meta/repositories/usage.ts":
        'import { TABLES } from "../../telemetry/tables.js";\nexport const t = TABLES;\n',
    });
    expect(await importFindings(root)).toEqual(["stores-apart"]);
  });

  it("fails on lib/ importing anything of ours", async () => {
    const root = tree({
      ...clean,
      "src/lib/clock.ts":
        'import "../config/settings.js";\nexport const now = (): number => Date.now();\n',
      "src/config/settings.ts": "export const port = 1;\n",
    });
    expect(await importFindings(root)).toEqual(["lib-imports-nothing-of-ours"]);
  });

  it("fails on a domain calling up into a transport", async () => {
    const root = tree({
      ...clean,
      "src/monitors/run.ts":
        'import { route } from "../server/routes.js";\nexport const r = route;\n',
    });
    expect(await importFindings(root)).toEqual(["domains-import-no-transport"]);
  });

  it("fails on a cycle, type-only included", async () => {
    const root = tree({
      ...clean,
      "src/alerts/a.ts": 'import type { B } from "./b.js";\nexport type A = { b?: B };\n',
      "src/alerts/b.ts": 'import type { A } from "./a.js";\nexport type B = { a?: A };\n',
    });
    expect(await importFindings(root)).toContain("no-cycles");
  });

  it("fails on web/ importing server code, and on contracts importing Node or lib", async () => {
    const root = tree({
      ...clean,
      "web/src/api.ts":
        'import { ids } from "../../src/monitors/monitors.js";\nexport const f = ids;\n',
      "src/contracts/monitors.ts":
        'import { now } from "../lib/clock.js";\nimport { readFileSync } from "node:fs";\nexport const t = [now, readFileSync];\n',
    });
    expect((await importFindings(root)).sort()).toEqual([
      "contracts-are-browser-safe",
      "contracts-are-browser-safe",
      "web-imports-only-contracts",
    ]);
  });
});

describe("the layout check (npm run check:layout)", () => {
  it("names a long file, a vague name, a missing cited doc and a hand-copied contract type", () => {
    const root = tree({
      "src/monitors/long.ts": `${"export const x = 1;\n".repeat(401)}`,
      "src/monitors/views.ts": "export const y = 1;\n",
      "src/monitors/cites.ts": `// see docs/${"nowhere"}.md\nexport const z = 1;\n`,
      "src/contracts/monitors.ts": "export type MonitorView = { id: string };\n",
      "web/src/api.ts": "export interface MonitorView { id: string }\n",
      [`docs/${"here"}.md`]: "# here\n",
      "src/monitors/fine.ts": `// see docs/${"here"}.md\nexport const w = 1;\n`,
    });
    expect(checkArchitecture(root)).toEqual([
      `src/monitors/cites.ts: cites docs/${"nowhere"}.md, which does not exist`,
      "src/monitors/long.ts: 401 lines, over the 400-line budget: split it by responsibility",
      "src/monitors/views.ts: named for its kind, not its content: name it after what it holds",
      "web/src/api.ts: declares MonitorView, which src/contracts/ exports: import it instead",
    ]);
  });

  it("accepts a tree that follows the rules, 400 lines included", () => {
    const root = tree({
      "src/monitors/monitors.ts": `${"export const x = 1;\n".repeat(400)}`,
      "src/contracts/monitors.ts": "export type MonitorView = { id: string };\n",
      "web/src/api.ts": 'import type { MonitorView } from "../../src/contracts/monitors";\n',
    });
    expect(checkArchitecture(root)).toEqual([]);
  });
});
