#!/usr/bin/env node
// The layout rules that an import graph cannot see (docs/architecture.md "Rules"):
//  1. no source file over 400 lines (generated and data files listed below aside);
//  2. no file named only for its kind (views.ts, model.ts, errors.ts…): name it after what it holds;
//  3. every docs/… file a comment cites exists;
//  4. web/ declares no type that src/contracts/ exports: it imports it.
// Run with a directory to check another tree (the check's own test does). Exit 1 on a finding.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";

export const MAX_LINES = 400;
/** Data, not design: long because of what they list. */
export const EXEMPT = new Set([
  "test/tql/corpus.ts",
  "test/tql/dataset.ts",
  "src/server/openapi-examples.json",
]);
export const VAGUE_NAMES = new Set([
  "views.ts",
  "model.ts",
  "errors.ts",
  "manage.ts",
  "read.ts",
  "service.ts",
  "types.ts",
  "utils.ts",
  "helpers.ts",
  "misc.ts",
  "common.ts",
]);
const ROOTS = ["src", "web/src", "test", "bench", "scripts"];
const CODE = /\.(ts|tsx|mjs|cjs|js|css)$/;

function walk(root, dir, out) {
  let entries;
  try {
    entries = readdirSync(join(root, dir));
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === "node_modules" || name === "dist") continue;
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) walk(root, path, out);
    else if (CODE.test(name)) out.push(path);
  }
  return out;
}

/** Every finding in the tree at `root`, as `path: message` lines. */
export function checkArchitecture(root) {
  const findings = [];
  const files = ROOTS.flatMap((r) => walk(root, r, []));
  const contractNames = new Set();
  for (const file of files.filter((f) => f.startsWith("src/contracts/"))) {
    const text = readFileSync(join(root, file), "utf8");
    for (const m of text.matchAll(/^export (?:const|type|interface|function) ([A-Za-z0-9_]+)/gm)) {
      contractNames.add(m[1]);
    }
  }
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_LINES && !EXEMPT.has(file)) {
      findings.push(
        `${file}: ${lines} lines, over the ${MAX_LINES}-line budget: split it by responsibility`,
      );
    }
    if (file.startsWith("src/") && VAGUE_NAMES.has(basename(file))) {
      findings.push(`${file}: named for its kind, not its content: name it after what it holds`);
    }
    for (const m of text.matchAll(/\bdocs\/[A-Za-z0-9_./-]+\.md\b/g)) {
      if (!existsSync(join(root, m[0])))
        findings.push(`${file}: cites ${m[0]}, which does not exist`);
    }
    if (file.startsWith("web/src/")) {
      for (const m of text.matchAll(/^(?:export )?(?:interface|type) ([A-Za-z0-9_]+)\b/gm)) {
        if (contractNames.has(m[1])) {
          findings.push(
            `${file}: declares ${m[1]}, which src/contracts/ exports: import it instead`,
          );
        }
      }
    }
  }
  return findings;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? process.cwd();
  const findings = checkArchitecture(root);
  for (const f of findings) console.error(f);
  if (findings.length > 0) {
    console.error(
      `\n${findings.length} architecture finding(s); see docs/architecture.md "Rules".`,
    );
    process.exit(1);
  }
  console.log(`architecture: ${relative(process.cwd(), root) || "."} follows the layout rules`);
}
