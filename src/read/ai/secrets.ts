import type { RecommendationSeverity } from "../../contracts/ai.js";

/**
 * One way a secret shows up in text: an optional prefix that is not secret (`password=`,
 * `Bearer `) and the secret itself. Sources are written in the regex subset JavaScript and RE2
 * (ClickHouse's `match`) share, so the engine and this module find the same things.
 */
interface SecretPattern {
  prefix?: string;
  secret: string;
  ignoreCase?: boolean;
}

/** A kind of secret the detector knows. */
export interface SecretKind {
  kind: string;
  name: string;
  severity: RecommendationSeverity;
  patterns: readonly SecretPattern[];
}

/** Assignment keys whose values are credentials (`password=…`, `"api_key": "…"`). */
const CREDENTIAL_KEYS =
  "(?:password|passwd|pwd|passphrase|secret|client_secret|api_key|apikey|access_token|auth_token)";
/** A value that is not a placeholder: `****`, `[REDACTED]`, `<hidden>`, `${VAR}`, `{{x}}`, `%s`. */
const VALUE_START = "[^\\s\"'&,;*\\[<${%]";

/** The registry of secret kinds: adding one is one entry. */
export const SECRET_KINDS: readonly SecretKind[] = [
  {
    kind: "private-key",
    name: "Private key",
    severity: "critical",
    // The header and whatever base64 body follows it: over-masking is the safe side.
    patterns: [
      {
        secret:
          "-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=\\s]*(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)?",
      },
    ],
  },
  {
    kind: "aws-access-key",
    name: "AWS access key",
    severity: "critical",
    patterns: [
      { secret: "\\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\\b" },
      {
        prefix: "\\baws_secret_access_key[\"']?\\s*[=:]\\s*[\"']?",
        secret: "[A-Za-z0-9/+=]{40}",
        ignoreCase: true,
      },
    ],
  },
  {
    kind: "github-token",
    name: "GitHub token",
    severity: "high",
    patterns: [{ secret: "\\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})" }],
  },
  {
    kind: "slack-token",
    name: "Slack token or webhook",
    severity: "high",
    patterns: [
      { secret: "\\bxox[abposr]-[A-Za-z0-9-]{10,}" },
      { secret: "https://hooks\\.slack\\.com/services/[A-Za-z0-9/_-]{20,}" },
    ],
  },
  {
    kind: "stripe-key",
    name: "Stripe secret key",
    severity: "high",
    patterns: [{ secret: "\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}" }],
  },
  {
    kind: "llm-api-key",
    name: "OpenAI or Anthropic API key",
    severity: "high",
    patterns: [{ secret: "\\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}" }],
  },
  {
    kind: "google-api-key",
    name: "Google API key",
    severity: "high",
    patterns: [{ secret: "\\bAIza[0-9A-Za-z_-]{35}" }],
  },
  {
    kind: "vigil-api-key",
    name: "Vigil API key",
    severity: "high",
    patterns: [{ secret: "\\bvgl_[A-Za-z0-9]{24,}" }],
  },
  {
    kind: "password",
    name: "Password or secret assignment",
    severity: "high",
    patterns: [
      {
        prefix: `\\b${CREDENTIAL_KEYS}=`,
        secret: `${VALUE_START}[^\\s"'&,;]{3,}`,
        ignoreCase: true,
      },
      {
        prefix: `"${CREDENTIAL_KEYS}"\\s*:\\s*"`,
        secret: `${VALUE_START}[^"]{3,}`,
        ignoreCase: true,
      },
    ],
  },
  {
    kind: "jwt",
    name: "JSON Web Token",
    severity: "medium",
    patterns: [{ secret: "\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}" }],
  },
  {
    kind: "bearer-token",
    name: "Bearer token",
    severity: "medium",
    patterns: [{ prefix: "\\bbearer\\s+", secret: "[A-Za-z0-9._~+/-]{16,}=*", ignoreCase: true }],
  },
];

const source = (p: SecretPattern) => `${p.prefix ?? ""}${p.secret}`;

/** One kind's patterns as one RE2 expression for ClickHouse's `match` (flags inline). */
export function secretSqlPattern(kind: SecretKind): string {
  return kind.patterns.map((p) => `(?${p.ignoreCase ? "i" : ""}:${source(p)})`).join("|");
}

/** Every kind's patterns as one RE2 expression: a cheap first filter in the engine. */
export const ANY_SECRET_SQL_PATTERN = SECRET_KINDS.map(secretSqlPattern).join("|");

const COMPILED = SECRET_KINDS.flatMap((kind) =>
  kind.patterns.map((p) => ({
    kind: kind.kind,
    prefix: p.prefix !== undefined,
    regex: new RegExp(
      p.prefix !== undefined ? `(${p.prefix})(${p.secret})` : `(${p.secret})`,
      p.ignoreCase ? "gi" : "g",
    ),
  })),
);

/** Where a secret sits in a text: [start, end) of the secret itself, prefixes excluded. */
export interface SecretMatch {
  kind: string;
  start: number;
  end: number;
}

/** Every secret in the text, by position; overlapping matches of different kinds are all kept. */
export function findSecrets(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  for (const { kind, prefix, regex } of COMPILED) {
    regex.lastIndex = 0;
    for (const match of text.matchAll(regex)) {
      const lead = prefix ? (match[1] ?? "").length : 0;
      const secret = (prefix ? match[2] : match[1]) ?? "";
      const start = match.index + lead;
      found.push({ kind, start, end: start + secret.length });
    }
  }
  return found.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The kinds found in the text, in registry order. */
export function secretKindsIn(text: string): string[] {
  const kinds = new Set(findSecrets(text).map((m) => m.kind));
  return SECRET_KINDS.map((k) => k.kind).filter((k) => kinds.has(k));
}

/**
 * The text with every secret replaced by `[REDACTED:<kind>]`. Nothing of a secret survives,
 * not even its first characters; overlapping matches are masked as one span.
 */
export function maskSecrets(text: string): string {
  let out = "";
  let at = 0;
  for (const match of findSecrets(text)) {
    if (match.end <= at) continue;
    if (match.start >= at) {
      out += `${text.slice(at, match.start)}[REDACTED:${match.kind}]`;
    }
    // An overlap extends the span already masked.
    at = match.end;
  }
  return out + text.slice(at);
}

/**
 * A short, single-line excerpt around the first secret, masked: enough for a reader to find the
 * place, never the secret.
 */
export function maskedExcerpt(text: string, radius = 60): string {
  const masked = maskSecrets(text).replace(/\s+/g, " ").trim();
  const at = Math.max(0, masked.indexOf("[REDACTED:"));
  const start = Math.max(0, at - radius);
  const close = masked.indexOf("]", at);
  const end = Math.min(masked.length, (close < 0 ? at : close + 1) + radius);
  return `${start > 0 ? "…" : ""}${masked.slice(start, end)}${end < masked.length ? "…" : ""}`;
}
