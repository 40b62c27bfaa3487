import { BlockedAddressError } from "./address-policy.js";

/** Stable codes of an outbound request that produced no response (monitors, webhooks). */
export type TransportErrorCode =
  | "dns"
  | "refused"
  | "reset"
  | "tls"
  | "timeout"
  | "blocked_address"
  | "too_many_redirects"
  | "invalid_request"
  | "network"
  | "aborted";

export interface TransportError {
  code: TransportErrorCode;
  message: string;
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"]);
const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ECONNABORTED"]);
const TIMEOUT_CODES = new Set([
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
const INVALID_CODES = new Set([
  "UND_ERR_INVALID_ARG",
  "UND_ERR_NOT_SUPPORTED",
  "ERR_INVALID_URL",
  "ERR_INVALID_ARG_VALUE",
  "ERR_INVALID_HTTP_TOKEN",
  "ERR_INVALID_CHAR",
]);
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|EPROTO)/;

/** The error and its causes (undici and Node wrap errors), outermost first. */
function errorChain(error: unknown): { code?: string; message: string }[] {
  const chain: { code?: string; message: string }[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && chain.length < 10) {
    const item = queue.shift();
    if (!(item instanceof Error)) continue;
    const code = (item as { code?: unknown }).code;
    chain.push({ ...(typeof code === "string" ? { code } : {}), message: item.message });
    if (item.cause !== undefined) queue.push(item.cause);
    if (item instanceof AggregateError) queue.push(...item.errors);
  }
  return chain;
}

/** Maps a transport failure to a stable code and a sentence (the original message, no stack). */
export function classifyTransportError(error: unknown): TransportError {
  if (error instanceof BlockedAddressError)
    return { code: "blocked_address", message: error.message };
  const chain = errorChain(error);
  const detail = chain[0]?.message || String(error);
  for (const { code, message } of chain) {
    if (code === undefined) continue;
    if (code === "blocked_address") return { code: "blocked_address", message };
    if (DNS_CODES.has(code))
      return { code: "dns", message: `DNS lookup failed (${code}): ${message}` };
    if (code === "ECONNREFUSED")
      return { code: "refused", message: `connection refused: ${message}` };
    if (RESET_CODES.has(code))
      return { code: "reset", message: `connection closed by the server: ${message}` };
    if (TIMEOUT_CODES.has(code)) return { code: "timeout", message };
    if (TLS_CODE.test(code)) return { code: "tls", message: `TLS error: ${message}` };
    if (INVALID_CODES.has(code))
      return { code: "invalid_request", message: `invalid request: ${message}` };
    if (code === "EHOSTUNREACH" || code === "ENETUNREACH")
      return { code: "network", message: `host unreachable: ${message}` };
  }
  return { code: "network", message: detail };
}
