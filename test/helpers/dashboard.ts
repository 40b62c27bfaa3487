import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import type { DepsOptions } from "../../src/composition/app-deps.js";
import { demoRequests } from "../../src/demo/generator.js";
import { sendAll } from "../../src/demo/sender.js";
import { CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS } from "./browser.js";
import { addKey } from "./projects.js";
import { OWNER, startWithRoles } from "./roles.js";

const ROOT = process.cwd();
const WEB = join(ROOT, "web");

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * The dashboard built from the current web/ sources, into a directory named by their hash, so
 * test files running in parallel (and edits between runs) never read a half-written or stale
 * build: each build goes to a private directory first and is renamed into place.
 */
export async function builtDashboard(): Promise<string> {
  const hash = createHash("sha256");
  for (const file of [...files(WEB)].sort()) {
    hash.update(relative(WEB, file));
    hash.update(readFileSync(file));
  }
  hash.update(readFileSync(join(ROOT, "package-lock.json")));
  hash.update("production build");
  const cache = join(ROOT, "node_modules", ".cache", "vigil-web");
  const target = join(cache, hash.digest("hex").slice(0, 16));
  if (existsSync(join(target, "index.html"))) return target;
  mkdirSync(cache, { recursive: true });
  const temporary = `${target}.${process.pid}`;
  // Not execFileSync: a build that blocked this worker's event loop for a minute on a busy machine
  // would time out vitest's own messages to it ("Timeout calling onTaskUpdate").
  await promisify(execFile)(
    process.execPath,
    [
      join(ROOT, "node_modules", "vite", "bin", "vite.js"),
      "build",
      "--config",
      join(WEB, "vite.config.ts"),
      "--outDir",
      temporary,
      "--emptyOutDir",
      "--logLevel",
      "error",
    ],
    // Vitest sets NODE_ENV=test, which Vite would keep: React's development build, slow and chatty.
    { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" }, maxBuffer: 64 * 1024 * 1024 },
  );
  try {
    renameSync(temporary, target);
  } catch {
    // Another test file built the same sources first: use theirs.
    rmSync(temporary, { recursive: true, force: true });
  }
  return target;
}

/**
 * What the browser reported as errors on a page: uncaught exceptions and console errors. A
 * response the test provoked on purpose (a 4xx, or a 503 from a busy store) makes Chromium log
 * "Failed to load resource"; those are kept apart, since they are the server's answers rather
 * than the app's faults.
 */
export interface ConsoleWatch {
  errors: string[];
  failedRequests: string[];
}

export function watchConsole(page: Page): ConsoleWatch {
  const watch: ConsoleWatch = { errors: [], failedRequests: [] };
  page.on("pageerror", (error) => watch.errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    if (/Failed to load resource: the server responded with a status of (4\d\d|503)/.test(text))
      watch.failedRequests.push(`${text} (${message.location().url})`);
    else watch.errors.push(text);
  });
  return watch;
}

/** The service with the dashboard, its owner/viewer/outsider, and a Chromium to drive it. */
export async function startDashboard(
  dataDir: string,
  env: Record<string, string> = {},
  depsOptions: Pick<DepsOptions, "clock" | "newId"> = {},
) {
  const webDir = await builtDashboard();
  const roles = await startWithRoles(dataDir, env, depsOptions, { webDir });
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  mkdirSync(SCREENSHOTS, { recursive: true });
  const contexts: BrowserContext[] = [];
  return {
    ...roles,
    browser,
    baseUrl: roles.service.url,
    /** A fresh browser context (its own cookies) and page, with its console watched. */
    async newPage(options: { width?: number; height?: number } = {}) {
      const context = await browser.newContext({
        baseURL: roles.service.url,
        viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
      });
      contexts.push(context);
      const page = await context.newPage();
      return { page, console: watchConsole(page) };
    },
    /** Signs the page in through the sign-in form, as a person would. */
    async signIn(page: Page, user: { email: string; password: string } = OWNER) {
      await page.goto("/signin");
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill(user.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
    },
    /**
     * Sends the demo dataset (`vigil demo`: traces, logs, metrics, errors, AI calls, sessions
     * over the last two hours) into the default project through OTLP, as the CLI does.
     */
    async seedDemo(spans = 3_000) {
      const key = await addKey(roles.service, roles.projectId, { name: "demo", role: "full" });
      return sendAll(
        demoRequests({ spans, batchSpans: 500, windowMs: 2 * 3_600_000, nowMs: Date.now() }),
        { url: roles.service.url, key, concurrency: 2 },
      );
    },
    /** Saves a full-page screenshot under test-results/screenshots/dashboard-<name>.png. */
    async screenshot(page: Page, name: string) {
      await page.screenshot({ path: join(SCREENSHOTS, `dashboard-${name}.png`), fullPage: true });
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await roles.service.stop();
    },
  };
}

export type DashboardHarness = Awaited<ReturnType<typeof startDashboard>>;
