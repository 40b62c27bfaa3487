import { existsSync } from "node:fs";
import { join } from "node:path";

/** Debian's Chromium (`.ci/run` installs it); playwright never downloads a browser. */
export const CHROMIUM = process.env.VIGIL_TEST_CHROMIUM ?? "/usr/bin/chromium";

/** Where the screenshots go, for a person to look at after the run. */
export const SCREENSHOTS = join(process.cwd(), "test-results", "screenshots");

/** Flags for a headless Chromium on a machine with no network but loopback. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** CI installs Chromium, so there a missing browser is a failure, not a skip. */
export const chromiumAvailable = existsSync(CHROMIUM) || process.env.CI === "true";
