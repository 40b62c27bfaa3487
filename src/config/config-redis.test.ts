import { describe, expect, it } from "vitest";
import { describeRedisUrl } from "../server/rate-limit-redis.js";
import { ConfigError } from "./config-error.js";
import { loadConfig } from "./load-config.js";

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ env });
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error("expected a ConfigError");
};

describe("redis.url (VIGIL_REDIS_URL)", () => {
  it("is unset by default: rate limits count in this process", () => {
    expect(loadConfig({ env: {} }).redis.url).toBeUndefined();
  });

  it("takes redis:// and rediss:// URLs", () => {
    for (const url of ["redis://127.0.0.1:6379", "rediss://:secret@cache.internal:6380/2"])
      expect(loadConfig({ env: { VIGIL_REDIS_URL: url } }).redis.url).toBe(url);
  });

  it("refuses other schemes without repeating the URL (it may hold a password)", () => {
    const problems = problemsOf({ VIGIL_REDIS_URL: "http://user:hunter2@cache:6379" });
    expect(problems).toEqual(["VIGIL_REDIS_URL: must be a redis:// or rediss:// URL"]);
  });

  it("is logged without its credentials", () => {
    expect(describeRedisUrl("rediss://app:hunter2@cache.internal:6380/2")).toBe(
      "rediss://cache.internal:6380/2",
    );
    expect(describeRedisUrl("redis://:hunter2@127.0.0.1:6379")).toBe("redis://127.0.0.1:6379");
  });
});
