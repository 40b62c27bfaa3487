import { createHash } from "node:crypto";
import { parseFrames } from "./stack-frames.js";

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
  /** The in-app frame that raised the error, "file in function", for display. */
  culprit: string;
}

/**
 * Groups errors: the type plus the in-app frames, innermost first (file and function, never line
 * numbers); all frames when none is in-app; the type plus the normalized message without a stack.
 */
export function fingerprintError(
  type: string,
  message: string,
  stacktrace: string,
  sdkLanguage = "",
): Fingerprint {
  const frames = stacktrace ? parseFrames(stacktrace, sdkLanguage) : [];
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
