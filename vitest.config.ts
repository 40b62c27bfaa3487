import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each test file runs in its own process: chDB holds one data directory per process.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
