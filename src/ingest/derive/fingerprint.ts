import { createHash } from "node:crypto";

/** One stack frame reduced to what identifies code: file or module, and function. */
export interface Frame {
  file: string;
  fn: string;
  inApp: boolean;
}

/**
 * Frame syntaxes of the common runtimes, each capturing (function, file) or (file, function).
 * Line and column numbers are matched but never captured.
 */
const FRAME_PATTERNS: readonly { re: RegExp; fn: number; file: number }[] = [
  // V8 (Node, Chrome): "at fn (file:1:2)", "at async fn (file:1:2)"
  { re: /^\s*at (?:async )?(.+?) \((.+?)(?::\d+){0,2}\)\s*$/, fn: 1, file: 2 },
  // V8 without a function: "at file:1:2"
  { re: /^\s*at (?:async )?()([^\s()]+?)(?::\d+){1,2}\s*$/, fn: 1, file: 2 },
  // Python: 'File "app/x.py", line 3, in handler'
  { re: /^\s*File "(.+?)", line \d+, in (.+?)\s*$/, fn: 2, file: 1 },
  // Java / Kotlin / Scala: "at com.acme.Orders.create(Orders.java:42)"
  { re: /^\s*at ([\w$.<>/]+)\.([\w$<>-]+)\((?:[^)]*?)\)\s*$/, fn: 2, file: 1 },
  // .NET: "at Acme.Orders.Create(Int32 id) in /src/Orders.cs:line 42"
  { re: /^\s*at ([\w.`<>]+)\.([\w`<>]+)\(.*?\)(?: in .+?:line \d+)?\s*$/, fn: 2, file: 1 },
  // Firefox / Safari: "fn@file:1:2"
  { re: /^\s*([^@\s]*)@(.+?)(?::\d+){0,2}\s*$/, fn: 1, file: 2 },
  // Ruby: "app/x.rb:3:in `handler'" / "in 'Class#handler'"
  { re: /^\s*(.+?\.rb):\d+:in [`'](.+?)'\s*$/, fn: 2, file: 1 },
  // PHP: "#0 /app/x.php(3): Acme\\Orders->create()"
  { re: /^\s*#\d+ (.+?)\(\d+\): (.+?)\(.*\)\s*$/, fn: 2, file: 1 },
];

/** Go frames come in pairs: "pkg.fn(args)" then "\t/path/file.go:12 +0x1d". */
const GO_FUNCTION = /^([\w./-]+\.[\w.()*]+)\(.*\)$/;
const GO_FILE = /^\s+(\S+\.go):\d+/;

/** Third-party and runtime locations; frames there are not the application's own. */
const NOT_IN_APP =
  /node_modules|site-packages|dist-packages|\/usr\/(?:local\/)?lib\/|^node:|^internal\/|\(internal\/|<anonymous>|\/vendor\/|\/gems\/|\/go\/src\/|^runtime\/|^(?:java|javax|jdk|sun|kotlin|scala|System|Microsoft)\.|webpack\/bootstrap|chrome-extension:|moz-extension:/;

/** Strips what changes between deploys: origins, query strings, content hashes, leading dirs. */
function normalizeFile(file: string): string {
  let out = file.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/[?#].*$/, "");
  out = out.replace(/^file:\/\//, "");
  // Bundle hashes: app.3f9a2c1b.js, chunk-5GHJ2K.js
  out = out.replace(/([.-])[0-9a-f]{6,}(?=\.\w+$)/i, "$1<hash>");
  out = out.replace(/-[A-Z0-9]{6,10}(?=\.\w+$)/, "-<hash>");
  // The last two path segments identify a file across checkouts and release directories.
  const parts = out.split(/[\\/]/).filter(Boolean);
  return parts.slice(-2).join("/");
}

function normalizeFunction(fn: string): string {
  return fn
    .replace(/^(?:async |new |Object\.)/, "")
    .replace(/\[as [^\]]+\]/, "")
    .replace(/\$\$Lambda\$?[\w/$]*/, "$$Lambda")
    .replace(/\d+$/, "")
    .trim();
}

/** Parses a stack trace of any common runtime into frames, outermost error first. */
export function parseFrames(stacktrace: string): Frame[] {
  const frames: Frame[] = [];
  const lines = stacktrace.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const go = GO_FUNCTION.exec(line);
    const goFile = go ? GO_FILE.exec(lines[i + 1] ?? "") : null;
    if (go && goFile) {
      const file = goFile[1] ?? "";
      frames.push({
        file: normalizeFile(file),
        fn: go[1] ?? "",
        inApp: !NOT_IN_APP.test(file) && !/^runtime\./.test(go[1] ?? ""),
      });
      i++;
      continue;
    }
    for (const { re, fn, file } of FRAME_PATTERNS) {
      const match = re.exec(line);
      if (!match) continue;
      const rawFile = match[file] ?? "";
      const rawFn = match[fn] ?? "";
      if (!rawFile && !rawFn) break;
      frames.push({
        file: normalizeFile(rawFile),
        fn: normalizeFunction(rawFn),
        inApp: !NOT_IN_APP.test(rawFile) && !NOT_IN_APP.test(rawFn),
      });
      break;
    }
  }
  return frames;
}

/** Placeholders for the parts of a message that vary between occurrences of one error. */
const MESSAGE_RULES: readonly [RegExp, string][] = [
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, "<url>"],
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, "<email>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, "<ip>"],
  [/(?<![\w:])(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{0,4}(?![\w:])/gi, "<ip>"],
  [/\b0x[0-9a-f]+\b/gi, "<hex>"],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, "<hex>"],
  // Ids with a prefix or mixed letters and digits: usr_01HX…, ord-93kd8, a1b2c3d4e5
  [/\b[a-z]{1,8}[_-](?=[a-z0-9]*\d)[a-z0-9]{4,}\b/gi, "<id>"],
  [/\b(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{10,}\b/gi, "<id>"],
  [/[-+]?\b\d+(?:[.,]\d+)*\b/g, "<num>"],
];

/** A message with ids, numbers, uuids, hex, emails, urls and ips replaced by placeholders. */
export function normalizeMessage(message: string): string {
  let out = message.slice(0, 2000);
  for (const [re, placeholder] of MESSAGE_RULES) out = out.replace(re, placeholder);
  return out.replace(/\s+/g, " ").trim();
}

const MAX_FRAMES = 30;

export interface Fingerprint {
  fingerprint: string;
  /** The top in-app frame, "file in function", for display. */
  culprit: string;
}

/**
 * Groups errors: the type plus the in-app frames (file and function, never line numbers); all
 * frames when none is in-app; the type plus the normalized message when there is no stack.
 */
export function fingerprintError(type: string, message: string, stacktrace: string): Fingerprint {
  const frames = stacktrace ? parseFrames(stacktrace) : [];
  const inApp = frames.filter((f) => f.inApp);
  const chosen = (inApp.length > 0 ? inApp : frames).slice(0, MAX_FRAMES);
  const parts =
    chosen.length > 0
      ? [type, ...chosen.map((f) => `${f.file}|${f.fn}`)]
      : [type, normalizeMessage(message)];
  const top = chosen[0];
  return {
    fingerprint: createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 32),
    culprit: top ? `${top.file}${top.fn ? ` in ${top.fn}` : ""}` : "",
  };
}

/** The exception type named in a stack trace's first line ("TypeError: …"), if any. */
export function typeFromStack(stacktrace: string): string {
  const first = stacktrace.split("\n", 1)[0] ?? "";
  const match = /^([\w$.]+(?:Error|Exception|Panic|Fault)|panic)\b:?/.exec(first.trim());
  return match?.[1] ?? "";
}
