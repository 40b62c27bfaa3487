import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The sources compiled for the processes tests start (`vigil` commands, `vigil serve` nodes).
 * Compiling each time a child starts (tsx) cost 2 s of CPU per child, and the suite starts about
 * fifty; so the suite's global setup compiles `src/` once with esbuild (the compiler tsx runs
 * per child) into this folder. It sits beside `src/` at the same depth, so the sources' paths
 * relative to their own file (`../../package.json`, `proto/`, `dist/web`) still hold.
 */
export const CHILD_BUILD_DIR = fileURLToPath(new URL("../../dist-test", import.meta.url));
/** The compiled entry: the CLI's main() with its exit code, as `bin/vigil.js` runs `dist/`. */
export const CHILD_ENTRY = join(CHILD_BUILD_DIR, "cli-entry.js");
const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** `src/**\/*.ts` without tests. */
function sourceFiles(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"))
    .map((f) => join(SRC, f));
}

/** Compiles `src/` into CHILD_BUILD_DIR (about a second) unless no source changed since. */
export async function buildChildSources(): Promise<void> {
  const files = sourceFiles();
  const newest = Math.max(...files.map((f) => statSync(f).mtimeMs));
  if (existsSync(CHILD_ENTRY) && statSync(CHILD_ENTRY).mtimeMs >= newest) return;
  const { build } = await import("esbuild");
  rmSync(CHILD_BUILD_DIR, { recursive: true, force: true });
  await build({
    entryPoints: files,
    outdir: CHILD_BUILD_DIR,
    outbase: SRC,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
  writeFileSync(
    CHILD_ENTRY,
    [
      'import { main } from "./main.js";',
      "// Exit explicitly, as bin/vigil.js does: handles that would not close must not keep us alive.",
      "process.exit(await main(process.argv.slice(2)));",
      "",
    ].join("\n"),
  );
}

/** Whether the compiled sources are there (the suite's global setup made them). */
export const childBuildReady = (): boolean => existsSync(CHILD_ENTRY);
