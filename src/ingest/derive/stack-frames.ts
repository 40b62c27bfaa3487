/** One stack frame reduced to what identifies code: file or module, and function. */
export interface Frame {
  file: string;
  fn: string;
  inApp: boolean;
}

/** A frame with the index of the text line it was read from (for showing the trace annotated). */
interface LocatedFrame extends Frame {
  line: number;
}

/** A frame syntax capturing (function, file) or (file, function); line numbers are never captured. */
interface FrameSyntax {
  re: RegExp;
  fn: number;
  file: number;
}

// V8 (Node, Chrome): "at fn (file:1:2)", "at async fn (file:1:2)", and "at file:1:2".
const V8: FrameSyntax = {
  re: /^\s*at (?:async )?(.+?) \((.+?)(?::\d+){0,2}\)\s*$/,
  fn: 1,
  file: 2,
};
const V8_BARE: FrameSyntax = {
  re: /^\s*at (?:async )?()([^\s()]+?)(?::\d+){1,2}\s*$/,
  fn: 1,
  file: 2,
};
// Firefox / Safari: "fn@file:1:2"
const GECKO: FrameSyntax = { re: /^\s*([^@\s]*)@(.+?)(?::\d+){0,2}\s*$/, fn: 1, file: 2 };
// Python: 'File "app/x.py", line 3, in handler'
const PYTHON: FrameSyntax = { re: /^\s*File "(.+?)", line \d+, in (.+?)\s*$/, fn: 2, file: 1 };
// Java / Kotlin / Scala: "at com.acme.Orders.create(Orders.java:42)", maybe "~[app.jar:1.0]" after.
const JAVA: FrameSyntax = {
  re: /^\s*at ([\w$.<>/]+)\.([\w$<>-]+)\((?:[^)]*?)\)(?: ~?\[[^\]]*\])?\s*$/,
  fn: 2,
  file: 1,
};
// .NET: "at Acme.Orders.Create(Int32 id) in /src/Orders.cs:line 42"
const DOTNET: FrameSyntax = {
  re: /^\s*at ([\w.`<>+]+)\.([\w`<>|]+)(?:\[[^\]]*\])?\(.*?\)(?: in .+?:line \d+)?\s*$/,
  fn: 2,
  file: 1,
};
// Ruby: "app/x.rb:3:in `handler'", "from app/x.rb:3:in 'Class#handler'", or the first line
// of full_message: "app/x.rb:3:in 'handler': message (NoMethodError)".
const RUBY: FrameSyntax = {
  re: /^\s*(?:from )?(\S.*?\.rb):\d+:in [`'](.+?)'(?::|\s*$)/,
  fn: 2,
  file: 1,
};
// PHP: "#0 /app/x.php(3): Acme\\Orders->create()"
const PHP: FrameSyntax = { re: /^\s*#\d+ (.+?)\(\d+\): (.+?)\(.*\)\s*$/, fn: 2, file: 1 };

/** Go frames come in pairs: "pkg.fn(args)" then "\t/path/file.go:12 +0x1d". */
const GO_FUNCTION = /^([\w./-]+\.[\w.()*[\]]+)\(.*\)$/;
const GO_FILE = /^\s+(\S+\.go):\d+/;

/** Third-party and runtime locations; frames there are not the application's own. */
const NOT_IN_APP =
  /node_modules|site-packages|dist-packages|\/usr\/(?:local\/)?lib\/|\/lib\/python\d|^<frozen |^<internal:|^node:|^internal\/|\(internal\/|<anonymous>|\/vendor\/|\/gems\/|\/go\/src\/|\/go\/pkg\/mod\/|^runtime\/|^runtime\.|^(?:java|javax|jdk|sun|kotlin|kotlinx|scala|System|Microsoft)\.|webpack\/bootstrap|chrome-extension:|moz-extension:/;

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

function frame(rawFile: string, rawFn: string, line: number): LocatedFrame {
  return {
    line,
    file: normalizeFile(rawFile),
    fn: normalizeFunction(rawFn),
    inApp: !NOT_IN_APP.test(rawFile) && !NOT_IN_APP.test(rawFn),
  };
}

/**
 * The frames of lines matching one of the syntaxes (the first that matches a line wins);
 * `offset` is the index of `lines[0]` in the whole trace.
 */
function matchFrames(
  lines: readonly string[],
  syntaxes: readonly FrameSyntax[],
  offset = 0,
): LocatedFrame[] {
  const frames: LocatedFrame[] = [];
  for (const [index, line] of lines.entries()) {
    for (const { re, fn, file } of syntaxes) {
      const match = re.exec(line);
      if (!match) continue;
      const rawFile = match[file] ?? "";
      const rawFn = match[fn] ?? "";
      if (rawFile || rawFn) frames.push(frame(rawFile, rawFn, offset + index));
      break;
    }
  }
  return frames;
}

/** Go: the panicking goroutine's frames; a second "goroutine N [...]" block is another goroutine. */
function goFrames(lines: readonly string[]): LocatedFrame[] {
  const frames: LocatedFrame[] = [];
  let goroutines = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (/^goroutine \d+ \[/.test(line) && ++goroutines > 1) break;
    const go = GO_FUNCTION.exec(line);
    const goFile = go ? GO_FILE.exec(lines[i + 1] ?? "") : null;
    if (!go || !goFile) continue;
    frames.push(frame(goFile[1] ?? "", go[1] ?? "", i));
    i++;
  }
  return frames;
}

/** .NET prints inner exceptions first, each closed by this line; the thrown exception comes last. */
const DOTNET_INNER_END = /^\s*--- End of inner exception stack trace ---\s*$/;

function dotnetFrames(lines: readonly string[]): LocatedFrame[] {
  const sections: { offset: number; lines: string[] }[] = [{ offset: 0, lines: [] }];
  for (const [index, line] of lines.entries()) {
    if (DOTNET_INNER_END.test(line)) sections.push({ offset: index + 1, lines: [] });
    else sections.at(-1)?.lines.push(line);
  }
  return sections
    .reverse()
    .flatMap((section) => matchFrames(section.lines, [DOTNET], section.offset));
}

/**
 * How one runtime writes a stack trace. `parse` returns frames innermost first (the frame that
 * raised the exception leads), the reported exception's own frames before its causes'.
 */
interface StackLanguage {
  /** `telemetry.sdk.language` values of this runtime's OpenTelemetry SDKs. */
  sdk: readonly string[];
  /** Recognizes the runtime's trace by its shape, whatever the SDK says. */
  shape: RegExp;
  parse(lines: readonly string[]): LocatedFrame[];
  /** The exception type written in the trace itself, if the runtime writes one. */
  type?(lines: readonly string[]): string;
}

const firstMatch = (lines: readonly string[], re: RegExp): string => {
  for (const line of lines) {
    const match = re.exec(line);
    if (match?.[1]) return match[1];
  }
  return "";
};

/** Detection order matters only where shapes could overlap; the most specific come first. */
const STACK_LANGUAGES: readonly StackLanguage[] = [
  {
    // Most recent call LAST; a chained exception's traceback follows its cause's.
    sdk: ["python"],
    shape: /^Traceback \(most recent call last\):|^\s*File ".+?", line \d+, in /m,
    parse: (lines) => matchFrames(lines, [PYTHON]).reverse(),
    type: (lines) =>
      firstMatch(
        [...lines].reverse(),
        /^([A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt))\b/,
      ),
  },
  {
    sdk: ["go"],
    shape: /^goroutine \d+ \[|^\s+\S+\.go:\d+/m,
    parse: goFrames,
  },
  {
    sdk: ["dotnet"],
    shape: /^\s*at \S+\(.*?\) in .+?:line \d+\s*$|^\s*--- End of inner exception stack trace ---/m,
    parse: dotnetFrames,
  },
  {
    // "Caused by:" sections follow the thrown exception's frames.
    sdk: ["java"],
    shape:
      /^\s*at [\w$.<>/]+\((?:[\w$-]+\.(?:java|kt|scala|groovy|clj):\d+|Native Method|Unknown Source)\)|^Caused by: /m,
    parse: (lines) => matchFrames(lines, [JAVA]),
  },
  {
    // full_message: the raising frame is on the first line, causes follow.
    sdk: ["ruby"],
    shape: /^\s*(?:from )?\S.*?\.rb:\d+:in [`']/m,
    parse: (lines) => matchFrames(lines, [RUBY]),
    type: (lines) => firstMatch(lines.slice(0, 1), /\(([A-Z][\w:]*)\)\s*$/),
  },
  {
    sdk: ["php"],
    shape: /^\s*#\d+ .+?\(\d+\): /m,
    parse: (lines) => matchFrames(lines, [PHP]),
  },
  {
    sdk: ["nodejs", "webjs"],
    shape: /^\s*at .+?:\d+:\d+\)?\s*$|^\s*[^@\s]*@\S+:\d+:\d+\s*$/m,
    parse: (lines) => matchFrames(lines, [V8, V8_BARE, GECKO]),
  },
];

/** A trace no language recognizes: every syntax, in text order. */
const ANY_LANGUAGE: StackLanguage = {
  sdk: [],
  shape: /$^/,
  parse: (lines) => matchFrames(lines, [V8, V8_BARE, PYTHON, JAVA, DOTNET, GECKO, RUBY, PHP]),
};

/** The trace's own shape decides; the SDK's language only when the shape is not recognized. */
function stackLanguage(stacktrace: string, sdkLanguage: string): StackLanguage {
  const sdk = sdkLanguage.toLowerCase();
  return (
    STACK_LANGUAGES.find((l) => l.shape.test(stacktrace)) ??
    STACK_LANGUAGES.find((l) => l.sdk.includes(sdk)) ??
    ANY_LANGUAGE
  );
}

/**
 * Parses a stack trace of any common runtime into frames, innermost (the raising frame) first.
 * `sdkLanguage` is the resource's `telemetry.sdk.language`, '' when unknown.
 */
export function parseFrames(stacktrace: string, sdkLanguage = ""): Frame[] {
  return stackLanguage(stacktrace, sdkLanguage)
    .parse(stacktrace.split(/\r?\n/))
    .map(({ file, fn, inApp }) => ({ file, fn, inApp }));
}

/** One line of a stack trace and the frame read from it, if it is one. */
export interface StackLine {
  text: string;
  frame: Frame | null;
}

/**
 * A stack trace line by line, each frame line with the frame the grouping reads from it (so a
 * viewer highlights exactly the in-app frames the fingerprint is made of).
 */
export function annotateStack(stacktrace: string, sdkLanguage = ""): StackLine[] {
  if (!stacktrace) return [];
  const lines = stacktrace.split(/\r?\n/);
  const byLine = new Map<number, Frame>();
  for (const { line, file, fn, inApp } of stackLanguage(stacktrace, sdkLanguage).parse(lines))
    byLine.set(line, { file, fn, inApp });
  return lines.map((text, index) => ({ text, frame: byLine.get(index) ?? null }));
}

/** The exception type a stack trace names ("TypeError: …", Python's last line, Ruby's "(Name)"). */
export function typeFromStack(stacktrace: string, sdkLanguage = ""): string {
  const lines = stacktrace.split(/\r?\n/);
  const own = stackLanguage(stacktrace, sdkLanguage).type?.(lines);
  if (own) return own;
  const first = lines[0] ?? "";
  const match = /^([\w$.]+(?:Error|Exception|Panic|Fault)|panic)\b:?/.exec(first.trim());
  return match?.[1] ?? "";
}
