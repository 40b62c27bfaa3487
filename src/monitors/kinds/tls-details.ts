import { subscribe } from "node:diagnostics_channel";
import { checkServerIdentity, type PeerCertificate, TLSSocket } from "node:tls";
import type { TlsDetailsView } from "../../contracts/monitors.js";

// What a TLS connection's certificate says (tls checks and every https step): subject, issuer,
// validity, days left, whether the chain is trusted and whether the name matches.

const DAY_MS = 86_400_000;

/** A distinguished name's common name, else its fields as "O=…, C=…". */
function nameOf(name: PeerCertificate["subject"] | undefined): string {
  if (!name) return "";
  const fields = name as unknown as Record<string, string | string[] | undefined>;
  const cn = fields.CN;
  if (cn) return Array.isArray(cn) ? cn.join(", ") : cn;
  return Object.entries(fields)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join("+") : value}`)
    .join(", ");
}

const iso = (text: string): string => {
  const time = Date.parse(text);
  return Number.isFinite(time) ? new Date(time).toISOString() : text;
};

export function detailsOf(
  certificate: PeerCertificate,
  judged: { hostname: string; now: Date; authorized: boolean; authorizationError: string | null },
): TlsDetailsView {
  const validTo = Date.parse(certificate.valid_to);
  return {
    subject: nameOf(certificate.subject),
    issuer: nameOf(certificate.issuer),
    validFrom: iso(certificate.valid_from),
    validTo: iso(certificate.valid_to),
    daysLeft: Number.isFinite(validTo) ? Math.floor((validTo - judged.now.getTime()) / DAY_MS) : 0,
    authorized: judged.authorized,
    authorizationError: judged.authorizationError,
    hostnameMatches: checkServerIdentity(judged.hostname, certificate) === undefined,
  };
}

/** The certificate in a few lines, kept as a tls check's response body. */
export function certificateSummary(certificate: PeerCertificate): string {
  return [
    `subject: ${nameOf(certificate.subject)}`,
    `issuer: ${nameOf(certificate.issuer)}`,
    `valid from: ${iso(certificate.valid_from)}`,
    `valid to: ${iso(certificate.valid_to)}`,
    ...(certificate.subjectaltname ? [`names: ${certificate.subjectaltname}`] : []),
    ...(certificate.serialNumber ? [`serial: ${certificate.serialNumber}`] : []),
    ...(certificate.fingerprint256 ? [`sha256: ${certificate.fingerprint256}`] : []),
  ].join("\n");
}

/**
 * https steps: the certificate of the connection a request was sent on. undici publishes every
 * request's headers with its socket; a step waiting for its request is found by the traceparent
 * header it sends (unique per step). Two waiting steps sending the same value learn nothing.
 */
type Waiting = { now: () => Date; seen?: TlsDetailsView | null };
const waiting = new Map<string, Waiting[]>();

const TRACEPARENT = /^traceparent:[ \t]*(\S+)[ \t]*$/im;

/** What a TLS handshake presented. */
interface Presented {
  certificate: PeerCertificate;
  authorized: boolean;
  authorizationError: string | null;
}
/** Per socket, from its first request (a kept-alive socket may later say less). */
const bySocket = new WeakMap<TLSSocket, Presented | null>();
/**
 * Per origin, the last full handshake's: a resumed TLS session presents no certificate, and
 * undici resumes sessions, so a resumed connection reports the one its session was made with.
 */
const byOrigin = new Map<string, Presented>();
const MAX_ORIGINS = 2000;

function presentedBy(socket: TLSSocket, origin: string): Presented | null {
  const known = bySocket.get(socket);
  if (known !== undefined) return known;
  const certificate = socket.getPeerCertificate();
  let seen: Presented | null = null;
  if (certificate && Object.keys(certificate).length > 0) {
    seen = {
      certificate,
      authorized: socket.authorized,
      authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
    };
    byOrigin.delete(origin);
    byOrigin.set(origin, seen);
    if (byOrigin.size > MAX_ORIGINS) byOrigin.delete(byOrigin.keys().next().value as string);
  } else if (socket.isSessionReused()) seen = byOrigin.get(origin) ?? null;
  bySocket.set(socket, seen);
  return seen;
}

function onSendHeaders(message: unknown): void {
  const { headers, socket, request } = message as {
    headers?: unknown;
    socket?: unknown;
    request?: { origin?: unknown };
  };
  if (!(socket instanceof TLSSocket)) return;
  const origin = String(request?.origin ?? "");
  // Every TLS connection's certificate is noted at its first request, while the handshake is fresh.
  const seen = presentedBy(socket, `${origin} ${socket.servername || ""}`);
  if (waiting.size === 0 || typeof headers !== "string") return;
  const key = TRACEPARENT.exec(headers)?.[1];
  const entries = key === undefined ? undefined : waiting.get(key);
  const entry = entries?.length === 1 ? entries[0] : undefined;
  if (!entry) return;
  let hostname = socket.servername || "";
  try {
    hostname = new URL(origin).hostname.replace(/^\[(.*)\]$/, "$1");
  } catch {
    // The socket's SNI name stands in.
  }
  entry.seen = seen && detailsOf(seen.certificate, { hostname, now: entry.now(), ...seen });
}

/**
 * Runs `send` (one HTTP request and its redirects, sending `traceparent`) and returns the
 * certificate of the last TLS connection it used (null when none was seen: plain http).
 */
export async function withTlsDetails<T>(
  traceparent: string,
  now: () => Date,
  send: () => Promise<T>,
): Promise<{ value: T; tls: TlsDetailsView | null }> {
  const entry: Waiting = { now };
  const list = waiting.get(traceparent) ?? [];
  list.push(entry);
  waiting.set(traceparent, list);
  try {
    const value = await send();
    return { value, tls: entry.seen ?? null };
  } finally {
    const rest = (waiting.get(traceparent) ?? []).filter((e) => e !== entry);
    if (rest.length === 0) waiting.delete(traceparent);
    else waiting.set(traceparent, rest);
  }
}

subscribe("undici:client:sendHeaders", onSendHeaders);
