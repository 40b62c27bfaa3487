#!/usr/bin/env node
// The registry mirror this project installs from serves only some platforms' builds of
// packages such as @chdb/lib-*, @biomejs/cli-* and @rollup/rollup-*. `npm install` then drops
// the other platforms from package-lock.json, and `npm ci` rejects that lockfile ("Missing:
// … from lock file"). This restores the entries npm writes against the full registry: each
// optional platform package at its parent's exact pinned version, with the os/cpu/libc that
// make npm skip it on any other machine without fetching it.
//
//   node scripts/complete-lockfile.mjs          complete package-lock.json in place
//   node scripts/complete-lockfile.mjs --check  exit 1 when entries are missing
import { readFileSync, writeFileSync } from "node:fs";

const OS = [
  "darwin",
  "linux",
  "win32",
  "android",
  "freebsd",
  "openbsd",
  "netbsd",
  "sunos",
  "aix",
  "openharmony",
];
const CPU = ["x64", "arm64", "arm", "ia32", "riscv64", "ppc64", "s390x", "loong64", "mips64el"];
const EXACT = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

function platformOf(name) {
  const tokens = name.slice(name.lastIndexOf("/") + 1).split("-");
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.find((t) => CPU.includes(t));
  if (!os || !cpu) return undefined;
  const entry = { cpu: [cpu], os: [os] };
  if (os === "linux") {
    if (tokens.some((t) => t.startsWith("musl"))) entry.libc = ["musl"];
    else if (tokens.some((t) => t.startsWith("gnu"))) entry.libc = ["glibc"];
  }
  return entry;
}

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages ?? {};
const missing = [];
const problems = [];

for (const [location, pkg] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ""}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform || !EXACT.test(spec)) {
      problems.push(
        `${name}@${spec} (needed by ${location || "the root"}): cannot infer its platform or exact version`,
      );
      continue;
    }
    missing.push([
      `node_modules/${name}`,
      { version: spec, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platform },
    ]);
  }
}

if (problems.length > 0) {
  console.error(`complete-lockfile: ${problems.join("\n  ")}`);
  process.exit(1);
}
if (process.argv.includes("--check")) {
  if (missing.length > 0) {
    console.error(
      `package-lock.json lacks ${missing.length} optional platform packages, so \`npm ci\` would fail.\n` +
        "Run `npm run lockfile:complete` and commit package-lock.json.",
    );
    process.exit(1);
  }
  process.exit(0);
}
for (const [key, entry] of missing) packages[key] = entry;
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${missing.length} optional platform entries`);
