// A small MIME reader for the mail the tests' SMTP sink receives: enough of RFC 5322/2045–2047 to
// read what nodemailer writes (folded headers, encoded words, multipart/alternative and mixed,
// quoted-printable, base64, 7bit/8bit bodies in UTF-8). Not a general mail parser.

/** One parsed message (or body part): its headers (names lowercased) and its decoded parts. */
export interface ParsedMail {
  /** Each header's decoded value, names lowercased; a repeated header keeps its values joined by ", ". */
  headers: Record<string, string>;
  subject: string;
  from: string;
  /** The To header's addresses (bare, lowercased). */
  to: string[];
  /** The text/plain body, decoded ("" without one). */
  text: string;
  /** The text/html body, decoded ("" without one). */
  html: string;
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

/** Splits raw headers from the body and unfolds continuation lines. */
function splitHead(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = decodeWords(line.slice(colon + 1).trim());
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { headers, body };
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`); adjacent words join. */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, charset: string, kind: string, data) => {
      const bytes =
        kind.toUpperCase() === "B"
          ? Buffer.from(data, "base64")
          : qpBytes(String(data).replace(/_/g, " "));
      return decodeCharset(bytes, charset);
    });
}

function decodeCharset(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

/** Quoted-printable to bytes: soft line breaks removed, `=XX` decoded. */
function qpBytes(text: string): Buffer {
  const unfolded = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < unfolded.length; i++) {
    const char = unfolded[i] as string;
    const hex = unfolded.slice(i + 1, i + 3);
    if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      for (const byte of Buffer.from(char, "utf8")) bytes.push(byte);
    }
  }
  return Buffer.from(bytes);
}

/** A header's main value and its parameters (`multipart/alternative; boundary="x"`). */
function headerParams(value: string | undefined): {
  value: string;
  params: Record<string, string>;
} {
  const [main = "", ...rest] = (value ?? "").split(";");
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf("=");
    if (eq === -1) continue;
    params[param.slice(0, eq).trim().toLowerCase()] = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
  }
  return { value: main.trim().toLowerCase(), params };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers["content-transfer-encoding"] ?? "7bit").trim().toLowerCase();
  const charset = headerParams(part.headers["content-type"]).params.charset ?? "utf-8";
  if (encoding === "base64")
    return decodeCharset(Buffer.from(part.body.replace(/\s+/g, ""), "base64"), charset);
  if (encoding === "quoted-printable") return decodeCharset(qpBytes(part.body), charset);
  return part.body;
}

/** The leaf parts of a (possibly nested) multipart body, in order. */
function leaves(part: Part): Part[] {
  const type = headerParams(part.headers["content-type"]);
  const boundary = type.params.boundary;
  if (!type.value.startsWith("multipart/") || !boundary) return [part];
  const chunks = part.body.split(`--${boundary}`);
  // The preamble comes before the first boundary; the epilogue after `--boundary--`.
  return chunks
    .slice(1)
    .filter((chunk) => !chunk.startsWith("--"))
    .flatMap((chunk) => leaves(splitHead(chunk.replace(/^\n/, "").replace(/\n$/, ""))));
}

/** Bare lowercased addresses of an address header (`"A" <a@x>, b@y`). */
export function addressesOf(value: string | undefined): string[] {
  if (!value) return [];
  const angled = [...value.matchAll(/<([^<>\s]+@[^<>\s]+)>/g)].map((m) => m[1] as string);
  const found = angled.length > 0 ? angled : value.split(",").map((a) => a.trim());
  return found.filter((a) => a.includes("@")).map((a) => a.toLowerCase());
}

/** Parses one raw message as nodemailer writes it. */
export function parseMail(raw: string): ParsedMail {
  const message = splitHead(raw);
  let text = "";
  let html = "";
  for (const leaf of leaves(message)) {
    const type = headerParams(leaf.headers["content-type"] ?? "text/plain").value;
    const disposition = headerParams(leaf.headers["content-disposition"]).value;
    if (disposition === "attachment") continue;
    if (type === "text/plain" && !text) text = decodeBody(leaf);
    else if (type === "text/html" && !html) html = decodeBody(leaf);
  }
  return {
    headers: message.headers,
    subject: message.headers.subject ?? "",
    from: message.headers.from ?? "",
    to: addressesOf(message.headers.to),
    text: text.replace(/\n$/, ""),
    html: html.replace(/\n$/, ""),
  };
}
