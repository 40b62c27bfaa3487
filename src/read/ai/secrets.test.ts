import { describe, expect, it } from "vitest";
import {
  ANY_SECRET_SQL_PATTERN,
  findSecrets,
  maskedExcerpt,
  maskSecrets,
  SECRET_KINDS,
  secretKindsIn,
  secretSqlPattern,
} from "./secrets.js";

// Fixture secrets are assembled from parts so that no scanner mistakes this file for a leak.
const AWS = `AKIA${"IOSFODNN7EXAMPLE"}`;
const GITHUB = `ghp_${"a1B2c3D4e5F6g7H8i9J0".repeat(2).slice(0, 36)}`;
const STRIPE = `sk_live_${"4eC39HqLyjWDarjtT1zdp7dc"}`;
const SLACK = `xoxb-${"123456789012-abcdefghijkl"}`;
const VIGIL = `vgl_${"Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2"}`;
const OPENAI = `sk-proj-${"abcdefghijklmnopqrstuvwx"}`;
const GOOGLE = `AIza${"SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"}`;
const JWT = `eyJhbGciOiJIUzI1NiJ9.${"eyJzdWIiOiIxMjM0NTY3ODkwIn0"}.${"dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"}`;
const PEM = `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nabc+/=\n-----END RSA PRIVATE KEY-----`;

describe("secret detection", () => {
  it.each([
    ["aws-access-key", `using key ${AWS} for s3`, AWS],
    ["aws-access-key", `aws_secret_access_key=${"w".repeat(40)}`, "w".repeat(40)],
    ["github-token", `token ${GITHUB} expired`, GITHUB],
    ["stripe-key", `charge with ${STRIPE}`, STRIPE],
    ["slack-token", `slack ${SLACK}`, SLACK],
    ["vigil-api-key", `x-api-key: ${VIGIL}`, VIGIL],
    ["llm-api-key", `OPENAI_API_KEY ${OPENAI}`, OPENAI],
    ["google-api-key", `maps key ${GOOGLE}`, GOOGLE],
    ["jwt", `session ${JWT}`, JWT],
    ["private-key", `loaded ${PEM}`, PEM],
    ["password", "login user=bob password=hunter22&next=/", "hunter22"],
    ["password", '{"user":"bob","Password": "s3cr3t value"}', "s3cr3t value"],
    ["bearer-token", "Authorization: Bearer abcdef0123456789abcdef", "abcdef0123456789abcdef"],
  ])("finds a %s and masks all of it", (kind, text, secret) => {
    expect(secretKindsIn(text)).toContain(kind);
    const masked = maskSecrets(text);
    expect(masked).toContain(`[REDACTED:`);
    expect(masked).not.toContain(secret);
    // Not even a long piece of the secret survives.
    expect(masked).not.toContain(secret.slice(4, 16));
  });

  it("keeps the non-secret prefix so the reader sees what leaked", () => {
    expect(maskSecrets("db password=hunter22 ok")).toBe("db password=[REDACTED:password] ok");
    expect(maskSecrets("Authorization: Bearer abcdef0123456789abcdef")).toBe(
      "Authorization: Bearer [REDACTED:bearer-token]",
    );
  });

  it("ignores placeholders, prose and near misses", () => {
    for (const text of [
      "password=****",
      "password=[REDACTED]",
      `password=\${DB_PASSWORD}`,
      "password: must be at least 8 characters",
      '"password": "<hidden>"',
      "AKIA1234 is too short",
      "the task-runner-with-a-very-long-name started",
      "Bearer short",
      "eyJhbGciOiJIUzI1NiJ9 alone is only a header",
      "GET /api/orders answered 200",
    ]) {
      expect(findSecrets(text), text).toEqual([]);
      expect(maskSecrets(text)).toBe(text);
    }
  });

  it("masks overlapping matches of several kinds as one span", () => {
    const text = `Authorization: Bearer ${JWT} done`;
    expect(secretKindsIn(text)).toEqual(["jwt", "bearer-token"]);
    const masked = maskSecrets(text);
    // The more specific kind (registry order) names the span.
    expect(masked).toBe("Authorization: Bearer [REDACTED:jwt] done");
  });

  it("cuts a single-line excerpt around the first secret", () => {
    const text = `${"x".repeat(200)}\nconnecting with password=hunter22\nthen ${"y".repeat(200)}`;
    const excerpt = maskedExcerpt(text, 20);
    expect(excerpt).toBe("…cting with password=[REDACTED:password] then yyyyyyyyyyyyyy…");
    expect(excerpt).not.toContain("hunter22");
  });

  it("builds engine patterns with inline flags for every kind", () => {
    for (const kind of SECRET_KINDS) expect(secretSqlPattern(kind)).toMatch(/^\(\?i?:/);
    expect(ANY_SECRET_SQL_PATTERN.split("|(?").length).toBeGreaterThanOrEqual(SECRET_KINDS.length);
  });
});
