#!/usr/bin/env node
// `npm start` runs this instead of a full build (about 14 s): dist/ is rebuilt only when it is
// missing or older than what it is built from. Each source file under src/ (tests excepted, as
// in tsconfig.build.json) must have its dist/ .js, written after it and after the tsconfig files;
// the dashboard's dist/web/index.html must be newer than every file under web/.
//
//   node scripts/build-if-stale.mjs [ROOT]          run `npm run build` in ROOT when stale
//   node scripts/build-if-stale.mjs --check [ROOT]  exit 1 when stale, without building
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const CONFIGS = ["tsconfig.json", "tsconfig.build.json"];

function* allFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* allFiles(path);
    else yield path;
  }
}

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.[cm]?ts$/.test(entry.name) && !/\.test\.ts$|\.d\.[cm]?ts$/.test(entry.name))
      yield path;
  }
}

/** Why dist/ under root needs a build, or undefined when it is up to date. */
export function staleReason(root) {
  const src = join(root, "src");
  const configTime = Math.max(
    0,
    ...CONFIGS.map((c) => join(root, c))
      .filter((p) => existsSync(p))
      .map((p) => statSync(p).mtimeMs),
  );
  for (const file of sources(src)) {
    const rel = relative(src, file);
    const out = join(root, "dist", rel.replace(/\.([cm]?)ts$/, ".$1js"));
    if (!existsSync(out)) return `dist/${relative(join(root, "dist"), out)} is missing`;
    const built = statSync(out).mtimeMs;
    if (built < statSync(file).mtimeMs) return `src/${rel} changed since the last build`;
    if (built < configTime) return "a tsconfig file changed since the last build";
  }
  const web = join(root, "web");
  if (existsSync(web)) {
    const index = join(root, "dist", "web", "index.html");
    if (!existsSync(index)) return "dist/web/index.html is missing";
    const built = statSync(index).mtimeMs;
    for (const file of allFiles(web)) {
      if (built < statSync(file).mtimeMs)
        return `web/${relative(web, file)} changed since the last build`;
    }
  }
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const root =
    args.find((a) => a !== "--check") ?? dirname(dirname(fileURLToPath(import.meta.url)));
  const reason = staleReason(root);
  if (!reason) process.exit(0);
  if (check) {
    process.stdout.write(`stale: ${reason}\n`);
    process.exit(1);
  }
  process.stderr.write(`Building: ${reason}\n`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const built = spawnSync(npm, ["run", "build"], { cwd: root, stdio: "inherit" });
  process.exit(built.status ?? 1);
}
