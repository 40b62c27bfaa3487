import { describe, expect, it } from "vitest";
import { classifyPath, normalizePath, SUSPICIOUS_PATH_SQL_PATTERN } from "./suspicious-paths.js";

describe("suspicious request paths", () => {
  it.each([
    ["/.env", "env-file"],
    ["/app/.env.production", "env-file"],
    ["/.git/config", "vcs-metadata"],
    ["/.git", "vcs-metadata"],
    ["/wp-admin/setup-config.php", "wordpress"],
    ["/wp-login.php", "wordpress"],
    ["/phpMyAdmin/index.php", "phpmyadmin"],
    ["/static/../../etc/passwd", "path-traversal"],
    ["/download?file=..%2F..%2Fetc%2Fpasswd", "path-traversal"],
    ["/download?file=%252e%252e%252fconfig", "path-traversal"],
    ["/cgi-bin/etc/passwd", "system-file"],
    ["/.aws/credentials", "credentials-file"],
    ["/actuator/env", "credentials-file"],
    ["/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php", "exploit-probe"],
    [`/search?q=\${jndi:ldap://x}`, "exploit-probe"],
  ])("flags %s as %s", (path, kind) => {
    expect(classifyPath(path)).toBe(kind);
  });

  it.each([
    "/api/orders",
    "/api/orders/123",
    "/environment/settings",
    "/docs/getting-started.html",
    "/assets/app.1a2b3c.js",
    "/api/git-history",
    "/blog/wp-guide",
    "/api/v1.2/items",
  ])("leaves %s alone", (path) => {
    expect(classifyPath(path)).toBeUndefined();
  });

  it("decodes before matching and survives malformed escapes", () => {
    expect(normalizePath("/A%2E%2E%2Fb")).toBe("/a../b");
    expect(normalizePath("/bad%zz")).toBe("/bad%zz");
  });

  it("gives the engine one alternation of every kind", () => {
    expect(new RegExp(SUSPICIOUS_PATH_SQL_PATTERN).test("/.git/head")).toBe(true);
    expect(new RegExp(SUSPICIOUS_PATH_SQL_PATTERN).test("/api/orders")).toBe(false);
  });
});
