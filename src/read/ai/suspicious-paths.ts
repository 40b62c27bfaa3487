/**
 * Request paths that scanners and attackers probe. Patterns match the lower-cased, URL-decoded
 * path with its query, and are written in the regex subset JavaScript and RE2 (ClickHouse's
 * `match`) share, so the engine classifies exactly as this module does.
 */
export interface SuspiciousPathKind {
  kind: string;
  name: string;
  pattern: string;
  /** A 2xx answer to such a path may have handed out secrets or source code. */
  exposesSecrets: boolean;
}

/** The registry of probe kinds, first match wins: adding one is one entry. */
export const SUSPICIOUS_PATH_KINDS: readonly SuspiciousPathKind[] = [
  {
    kind: "path-traversal",
    name: "Path traversal",
    pattern: "\\.\\.[/\\\\]",
    exposesSecrets: true,
  },
  {
    kind: "system-file",
    name: "System file probe",
    pattern: "/etc/(?:passwd|shadow|hosts|group)\\b|/proc/self/|win\\.ini|boot\\.ini",
    exposesSecrets: true,
  },
  {
    kind: "env-file",
    name: "Environment file probe",
    pattern: "(?:^|/)\\.env(?:$|[./?~_-])",
    exposesSecrets: true,
  },
  {
    kind: "vcs-metadata",
    name: "Version control metadata probe",
    pattern: "(?:^|/)\\.(?:git|svn|hg)(?:$|/)",
    exposesSecrets: true,
  },
  {
    kind: "credentials-file",
    name: "Credentials or server config probe",
    pattern:
      "(?:^|/)(?:\\.aws/|\\.ssh/|id_rsa|id_ed25519|\\.htpasswd|\\.htaccess|\\.npmrc|\\.docker/config\\.json|web\\.config|wp-config\\.php|config\\.php|\\.ds_store)|/actuator/(?:env|heapdump)|/server-status",
    exposesSecrets: true,
  },
  {
    kind: "wordpress",
    name: "WordPress probe",
    pattern: "/(?:wp-admin|wp-login\\.php|wp-content|wp-includes|xmlrpc\\.php)",
    exposesSecrets: false,
  },
  {
    kind: "phpmyadmin",
    name: "phpMyAdmin probe",
    pattern: "/(?:phpmyadmin|myadmin|pma|mysqladmin|dbadmin)(?:$|/)",
    exposesSecrets: false,
  },
  {
    kind: "exploit-probe",
    name: "Known exploit probe",
    pattern:
      "/cgi-bin/|/vendor/phpunit/|eval-stdin\\.php|/shell\\.php|/cmd\\.php|/boaform/|/hnap1|\\$\\{jndi:|/console/login|/manager/html",
    exposesSecrets: false,
  },
];

/** Every kind as one engine expression; the caller URL-decodes and lower-cases the path first. */
export const SUSPICIOUS_PATH_SQL_PATTERN = SUSPICIOUS_PATH_KINDS.map(
  (k) => `(?:${k.pattern})`,
).join("|");

const COMPILED = SUSPICIOUS_PATH_KINDS.map((k) => ({ kind: k.kind, regex: new RegExp(k.pattern) }));

/** URL-decoded twice (double encoding is a classic evasion), then lower-cased. */
export function normalizePath(path: string): string {
  let text = path;
  for (let i = 0; i < 2; i++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text.toLowerCase();
}

/** The probe kind a request path (with its query) belongs to, or undefined for an ordinary one. */
export function classifyPath(path: string): string | undefined {
  const text = normalizePath(path);
  return COMPILED.find((k) => k.regex.test(text))?.kind;
}
