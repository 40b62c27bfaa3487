import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "./helpers/temp-dir.js";

const SCRIPT = fileURLToPath(new URL("../scripts/build-if-stale.mjs", import.meta.url));

/** Writes a file whose modification time is `at` seconds after an arbitrary epoch. */
function write(root: string, path: string, at: number, text = ""): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
  utimesSync(full, 1_700_000_000 + at, 1_700_000_000 + at);
}

const run = (root: string, ...args: string[]) =>
  spawnSync(process.execPath, [SCRIPT, ...args, root], { encoding: "utf8" });

describe("scripts/build-if-stale.mjs (npm start's prestart)", () => {
  let dir = makeTempDir();
  afterEach(() => {
    dir.remove();
    dir = makeTempDir();
  });

  /** A checkout built at t=100 from sources of t=10. */
  function builtCheckout(): string {
    const root = dir.path;
    write(root, "tsconfig.json", 10, "{}");
    write(root, "tsconfig.build.json", 10, "{}");
    write(root, "src/main.ts", 10);
    write(root, "src/cli/serve.ts", 10);
    write(root, "src/cli/serve.test.ts", 500);
    write(root, "dist/main.js", 100);
    write(root, "dist/cli/serve.js", 100);
    return root;
  }

  it("is what `npm start` runs first, instead of a full build", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.prestart).toBe("node scripts/build-if-stale.mjs");
  });

  it("leaves an up-to-date dist alone (tests do not count)", () => {
    const result = run(builtCheckout(), "--check");
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("");
  });

  it("is stale when dist is missing, a source is newer, a file was added, or a tsconfig changed", () => {
    const root = builtCheckout();
    write(root, "src/cli/serve.ts", 200);
    expect(run(root, "--check")).toMatchObject({
      status: 1,
      stdout: expect.stringContaining("src/cli/serve.ts changed"),
    });
    write(root, "src/cli/serve.ts", 10);
    write(root, "src/cli/new-command.ts", 50);
    expect(run(root, "--check")).toMatchObject({
      status: 1,
      stdout: expect.stringContaining("dist/cli/new-command.js is missing"),
    });
    write(root, "dist/cli/new-command.js", 100);
    expect(run(root, "--check").status).toBe(0);
    write(root, "tsconfig.build.json", 300, "{}");
    expect(run(root, "--check")).toMatchObject({
      status: 1,
      stdout: expect.stringContaining("tsconfig"),
    });
  });

  it("is stale when the dashboard's build is missing or older than a file under web/", () => {
    const root = builtCheckout();
    write(root, "web/src/main.tsx", 10);
    expect(run(root, "--check")).toMatchObject({
      status: 1,
      stdout: expect.stringContaining("dist/web/index.html is missing"),
    });
    write(root, "dist/web/index.html", 100);
    expect(run(root, "--check").status).toBe(0);
    write(root, "web/src/main.tsx", 200);
    expect(run(root, "--check")).toMatchObject({
      status: 1,
      stdout: expect.stringContaining("web/src/main.tsx changed"),
    });
  });

  it("runs `npm run build` only when stale", () => {
    const root = builtCheckout();
    // A build that records that it ran and refreshes the output.
    writeFileSync(
      join(root, "package.json"),
      JSON.stringify({
        name: "fixture",
        scripts: {
          build:
            "node -e \"const fs=require('fs');fs.appendFileSync('builds','x');fs.utimesSync('dist/main.js',new Date(),new Date());fs.utimesSync('dist/cli/serve.js',new Date(),new Date())\"",
        },
      }),
    );
    const builds = join(root, "builds");
    expect(run(root).status).toBe(0);
    expect(existsSync(builds)).toBe(false);
    write(root, "src/main.ts", 200);
    const rebuilt = run(root);
    expect(rebuilt.status).toBe(0);
    expect(rebuilt.stderr).toContain("Building: src/main.ts changed");
    expect(readFileSync(builds, "utf8")).toBe("x");
    expect(run(root).status).toBe(0);
    expect(readFileSync(builds, "utf8")).toBe("x");
  });
});
