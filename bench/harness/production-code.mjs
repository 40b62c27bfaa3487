// Benchmarks measure the code the service runs: `npm start` runs dist/, compiled by tsc, while
// tsx compiles src/ with esbuild's keepNames, which wraps every named closure in a __name() call
// when it is made (in bench:monitors the two did not differ beyond the machine's noise, but a
// figure should come from the code users run). `npm run bench -- bench/….ts` (every bench:*
// script) builds dist/ when stale, then runs the bench with this loaded: every import of a file
// under src/ goes to its compiled twin under dist/, and the bench's own files still run through
// tsx. Loaded by hand (`tsx --import ./bench/harness/production-code.mjs …`) on a dist/ that is
// missing or older than src/, it stops rather than measure old code. A child process the bench
// starts from src/ passes `--import` this file too (bench/heartbeats/server.ts).
//
// Imports of src/ must name the file with its extension (`../src/x.js`), as the sources do: an
// extensionless or directory import would load from src/ beside its dist/ twin.
import { register } from "node:module";
import { fileURLToPath } from "node:url";
import { isMainThread } from "node:worker_threads";
import { staleReason } from "../../scripts/build-if-stale.mjs";

const ROOT = new URL("../../", import.meta.url);
const SRC = new URL("src/", ROOT).href;
const DIST = new URL("dist/", ROOT).href;

export async function resolve(specifier, context, nextResolve) {
  if (context.parentURL && (specifier.startsWith(".") || specifier.startsWith("file:"))) {
    const url = new URL(specifier, context.parentURL).href;
    if (url.startsWith(SRC) && /\.[jt]s$/.test(url))
      return {
        url: DIST + url.slice(SRC.length).replace(/\.ts$/, ".js"),
        format: "module",
        shortCircuit: true,
      };
  }
  return nextResolve(specifier, context);
}

if (isMainThread) {
  const stale = staleReason(fileURLToPath(ROOT));
  if (stale) throw new Error(`dist/ is not current (${stale}): run \`npm run build\` first`);
  register(import.meta.url);
}
