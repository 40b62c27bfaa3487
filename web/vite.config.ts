import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * Writes a .br and a .gz twin beside each built script, style and SVG, so the server sends the
 * compressed bytes without compressing on each request (@fastify/static's preCompressed).
 */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "vigil-precompress",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const assets = join(outDir, "assets");
      for (const name of readdirSync(assets)) {
        const path = join(assets, name);
        if (!/\.(js|css|svg|json)$/.test(name) || statSync(path).size < 1024) continue;
        const bytes = readFileSync(path);
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
          }),
        );
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root,
  base: "/",
  // React's automatic JSX runtime through esbuild: no Babel or SWC plugin is needed to build.
  esbuild: { jsx: "automatic" },
  plugins: [precompress()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      // TanStack Query marks its modules "use client" for React Server Components; a browser
      // bundle has no use for the directive, so the warning about dropping it is noise.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
  server: {
    // `npm run dev:web` beside `npm run dev`: the API calls go to the running service.
    proxy: Object.fromEntries(
      ["/api", "/v1", "/webhooks", "/status"].map((path) => [path, "http://127.0.0.1:4318"]),
    ),
  },
});
