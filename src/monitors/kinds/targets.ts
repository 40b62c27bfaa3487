import { isIP } from "node:net";
import { parseResolver } from "../../contracts/monitor-catalog.js";
import type { FieldIssue } from "../../lib/domain-errors.js";
import { privateTargetMessage, privateUrlHost } from "../../lib/http/address-policy.js";

// The one-line targets and save-time SSRF checks of the kinds that connect to a host themselves.

/** host:port, with an IPv6 address in brackets. */
export const hostPort = (host: string, port: number): string =>
  `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;

/**
 * The issue of a host that is certainly not public (an IP literal that is not public, or a name
 * local by definition); other names are checked on every connection, on what they resolve to.
 */
export function privateHostIssue(field: string, host: string, allowSetting: string): FieldIssue[] {
  const bracketed = isIP(host) === 6 ? `[${host}]` : host;
  const blocked = privateUrlHost(`http://${bracketed}/`);
  return blocked ? [{ field, message: privateTargetMessage(blocked, allowSetting) }] : [];
}

/** A resolver's address when it is not public (the resolver is asked from this server). */
export function privateResolverIssue(
  resolver: string | undefined,
  allowSetting: string,
): FieldIssue[] {
  const parsed = resolver === undefined ? undefined : parseResolver(resolver);
  return parsed ? privateHostIssue("resolver", parsed.host, allowSetting) : [];
}
