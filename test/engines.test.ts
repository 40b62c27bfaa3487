import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

interface LockEntry {
  version?: string;
  engines?: unknown;
}

const manifest = JSON.parse(read("package.json")) as { engines: { node: string } };
const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, LockEntry> };
const oldest = semver.minVersion(manifest.engines.node);

/**
 * `npm ci` warns EBADENGINE for every installed package whose `engines.node` the running Node
 * does not satisfy. The oldest Node our `engines` admits must satisfy every package in the
 * lockfile (dev tools included: `npm ci` installs them too), and the README must name that
 * same Node, so a user who follows it installs without a warning.
 */
describe("the Node.js versions we say we run on", () => {
  it("package.json's engines has an oldest version", () => {
    expect(oldest).not.toBeNull();
  });

  it("every package in the lockfile runs on the oldest Node that engines admits", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== "")
      .flatMap(([path, entry]) => {
        const engines = entry.engines as { node?: unknown } | string[] | undefined;
        const range = engines && !Array.isArray(engines) ? engines.node : undefined;
        if (typeof range !== "string" || oldest === null) return [];
        return semver.satisfies(oldest, range)
          ? []
          : [`${path}@${entry.version} needs node ${range}`];
      });
    expect(refusing).toEqual([]);
  });

  it("the README names the same oldest Node as engines", () => {
    const named = /Node\.js (\d+(?:\.\d+)*)\+/.exec(read("README.md"));
    expect(named?.[1]).toBeDefined();
    expect(semver.coerce(named?.[1])?.version).toBe(oldest?.version);
  });
});
