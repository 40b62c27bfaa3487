#!/usr/bin/env node
// npm run verify: the quick checks first, then the two type checks and the architecture checks
// side by side (each on its own core), with incremental type-check state under node_modules/.cache
// so a second run rechecks only what changed. Exits non-zero if any step fails, naming it.
import { spawn } from "node:child_process";

const CACHE = "node_modules/.cache/vigil-verify";
const tsc = (project, name) =>
  `tsc -p ${project} --noEmit --incremental --tsBuildInfoFile ${CACHE}/${name}.tsbuildinfo`;

const run = (command) =>
  new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ command, code, output }));
  });

const report = ({ command, code, output }) => {
  process.stdout.write(`${code === 0 ? "✔" : "✖"} ${command}\n`);
  if (code !== 0) process.stdout.write(output);
  return code === 0;
};

const steps = [
  ["node scripts/complete-lockfile.mjs --check", "biome ci ."],
  [
    tsc("tsconfig.json", "server"),
    tsc("web/tsconfig.json", "web"),
    "npm run --silent check:imports && npm run --silent check:layout && node scripts/write-architecture-doc.mjs --check",
  ],
];
let ok = true;
for (const group of steps) {
  const results = await Promise.all(group.map(run));
  for (const result of results) ok = report(result) && ok;
  if (!ok) break;
}
process.exit(ok ? 0 : 1);
