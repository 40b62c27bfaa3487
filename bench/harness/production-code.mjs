// Benchmarks measure the code the service runs: `npm start` runs dist/, compiled by tsc, while
// tsx compiles src/ with esbuild's keepNames, which wraps every named closure in a __name() call
// when it is made (in bench:monitors the two did not differ beyond the machine's noise, but a
// figure should come from the code users run). Loaded with
// `tsx --import ./bench/harness/production-code.mjs bench/….ts`, this sends every import of a
// file under src/ to its compiled twin under dist/; the bench's own files still run through
// tsx. dist/ must be current: `node scripts/build-if-stale.mjs` before the bench (the npm
// scripts do), and a dist file older than its source stops the bench rather than measure old code.
import { existsSync, statSync } from "node:fs";
import { register } from "node:module";
import { fileURLToPath } from "node:url";
import { isMainThread } from "node:worker_threads";

const SRC = new URL("../../src/", import.meta.url).href;
const DIST = new URL("../../dist/", import.meta.url).href;

/** The dist/ twin of a src/ module's URL, or undefined for anything else. */
function compiledTwin(url) {
  if (!url.startsWith(SRC) || !/\.[jt]s$/.test(url)) return undefined;
  const twin = DIST + url.slice(SRC.length).replace(/\.ts$/, ".js");
  const twinPath = fileURLToPath(twin);
  if (!existsSync(twinPath)) return undefined;
  const sourcePath = fileURLToPath(url.replace(/\.js$/, ".ts"));
  if (existsSync(sourcePath) && statSync(sourcePath).mtimeMs > statSync(twinPath).mtimeMs)
    throw new Error(`${twinPath} is older than ${sourcePath}: run \`npm run build\` first`);
  return twin;
}

export async function resolve(specifier, context, nextResolve) {
  if (context.parentURL && (specifier.startsWith(".") || specifier.startsWith("file:"))) {
    const twin = compiledTwin(new URL(specifier, context.parentURL).href);
    if (twin) return { url: twin, format: "module", shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

if (isMainThread) register(import.meta.url);
