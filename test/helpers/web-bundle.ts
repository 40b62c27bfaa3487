import { join } from "node:path";
import { build, type Plugin, type Rollup } from "vite";

const ROOT = process.cwd();
const ENTRY = "vigil-test-entry.js";
/** Vite hands the lib entry over resolved against the root: matched by its name. */
const isEntry = (id: string) => id.endsWith(ENTRY);

/**
 * Web sources bundled for a page of their own in Chromium: `entry` is the module's code (plain
 * JS, imports by absolute path under `web/src`), built as the app builds (React in production
 * mode); the script and its styles come back as text to inline into a page.
 */
export async function bundleForBrowser(entry: string): Promise<{ js: string; css: string }> {
  const virtual: Plugin = {
    name: "vigil-test-entry",
    resolveId: (id) => (isEntry(id) ? `\0${ENTRY}` : null),
    load: (id) => (isEntry(id) ? entry : null),
  };
  const output = (await build({
    configFile: false,
    logLevel: "silent",
    root: join(ROOT, "web"),
    // Vitest's NODE_ENV=test would otherwise pick React's development JSX runtime.
    mode: "production",
    esbuild: { jsx: "automatic", jsxDev: false },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    plugins: [virtual],
    build: {
      write: false,
      minify: false,
      cssCodeSplit: false,
      lib: { entry: ENTRY, formats: ["iife"], name: "VigilTest", cssFileName: "entry" },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const files = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output);
  const js = files.find((o): o is Rollup.OutputChunk => o.type === "chunk")?.code;
  if (!js) throw new Error("the bundle has no script");
  const css = files
    .filter((o): o is Rollup.OutputAsset => o.type === "asset" && o.fileName.endsWith(".css"))
    .map((o) => String(o.source))
    .join("\n");
  return { js, css };
}

/** A path under web/src for an entry's import. */
export const webSource = (path: string): string => JSON.stringify(join(ROOT, "web/src", path));
