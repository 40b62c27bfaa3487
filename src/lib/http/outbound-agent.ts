import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { createSecureContext, rootCertificates } from "node:tls";
import { Agent, buildConnector } from "undici";
import {
  BlockedAddressError,
  isLoopbackAddress,
  isPublicAddress,
  PlainHttpNotLoopbackError,
} from "./address-policy.js";

/** Resolves every address of a host name, like `dns.lookup(host, { all: true })`. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** How an outbound HTTP agent may connect. */
export interface OutboundAgentOptions {
  /** Allow loopback, private and other non-public addresses (off: the SSRF guard is on). */
  allowPrivateNetworks: boolean;
  /** The setting that allows private networks, named in blocked-address errors. */
  allowSetting?: string;
  /** Connections per origin; unlimited when omitted. */
  connections?: number;
  /** Extra trusted CA certificates (PEM, one or more), added to Node's bundled roots. */
  ca?: string | undefined;
  /** The resolver (default `dns.lookup`); tests stand in names that resolve to chosen addresses. */
  resolve?: ResolveAll;
  /**
   * Plain http:// connects only to loopback addresses (webhooks: unencrypted requests stay on
   * this machine), checked on the addresses the socket connects to, with or without the guard.
   */
  plainHttpLoopbackOnly?: boolean;
}

// Callers bound every request with their own abort signal (monitors up to 60 s), so the
// connector's own connect timeout only has to stop sockets nobody waits for any more.
const CONNECT_TIMEOUT_MS = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 4_000;

/** What a connection's addresses must be: public (the SSRF guard), loopback (plain http), or both. */
interface AddressRules {
  guard: boolean;
  loopbackOnly: boolean;
  allowSetting: string;
}

/** Why a connection to these addresses is refused, or undefined when it may go ahead. */
function refusal(
  hostname: string,
  addresses: readonly string[],
  rules: AddressRules,
): Error | undefined {
  if (rules.loopbackOnly && !addresses.every(isLoopbackAddress))
    return new PlainHttpNotLoopbackError(hostname);
  const blocked = rules.guard ? addresses.find((address) => !isPublicAddress(address)) : undefined;
  return blocked === undefined
    ? undefined
    : new BlockedAddressError(hostname, blocked, rules.allowSetting);
}

/**
 * A lookup that resolves a host once and refuses it when any of its addresses breaks the rules
 * (with the guard on, one that is not public). The socket then connects to an address that was
 * checked, so there is no gap for DNS rebinding between the check and the connect.
 */
function guardedLookup(resolve: ResolveAll, rules: AddressRules): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, []);
        return;
      }
      const first = addresses[0];
      if (first === undefined) {
        const none: NodeJS.ErrnoException = new Error(`${hostname} has no addresses`);
        none.code = "ENOTFOUND";
        callback(none, []);
        return;
      }
      const refused = refusal(
        hostname,
        addresses.map((entry) => entry.address),
        rules,
      );
      if (refused !== undefined) {
        callback(refused, []);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

/**
 * An undici keep-alive Agent for requests to user-supplied URLs (monitors, Slack, webhooks).
 * Unless private networks are allowed, every connection — including each redirect hop — is
 * refused when the host is, or resolves to, an address that is not public (SSRF guard).
 */
export function createOutboundAgent(options: OutboundAgentOptions): Agent {
  const guard = !options.allowPrivateNetworks;
  const allowSetting = options.allowSetting ?? "VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS";
  const resolve = options.resolve ?? (dnsLookup as ResolveAll);
  const tls =
    options.ca === undefined
      ? {}
      : // One TLS context for every connection: building one from ~150 roots costs ~20 ms.
        { secureContext: createSecureContext({ ca: [...rootCertificates, options.ca] }) };
  const connectorFor = (rules: AddressRules) => ({
    rules,
    connector: buildConnector({
      timeout: CONNECT_TIMEOUT_MS,
      lookup: guardedLookup(resolve, rules),
      ...tls,
    }),
  });
  const secure = connectorFor({ guard, loopbackOnly: false, allowSetting });
  // Plain http:// gets a lookup of its own when it may reach loopback only.
  const plain = options.plainHttpLoopbackOnly
    ? connectorFor({ guard, loopbackOnly: true, allowSetting })
    : secure;
  const connect: buildConnector.connector = (target, callback) => {
    const { rules, connector } = target.protocol === "http:" ? plain : secure;
    // IP literals never reach the lookup function, so they are checked here.
    const literal = target.hostname.replace(/^\[(.*)\]$/, "$1");
    if (isIP(literal)) {
      const refused = refusal(target.hostname, [literal], rules);
      if (refused !== undefined) {
        callback(refused, null);
        return;
      }
    }
    connector(target, callback);
  };
  return new Agent({
    connect,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    ...(options.connections === undefined ? {} : { connections: options.connections }),
  });
}
