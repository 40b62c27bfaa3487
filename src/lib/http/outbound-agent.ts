import { type LookupAddress, type LookupOptions, lookup } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector } from "undici";
import { BlockedAddressError, isPublicAddress } from "./address-policy.js";

/** How an outbound HTTP agent may connect. */
export interface OutboundAgentOptions {
  /** Allow loopback, private and other non-public addresses (config: monitors.allowPrivateTargets). */
  allowPrivateNetworks: boolean;
  /** Connections per origin; unlimited when omitted. */
  connections?: number;
}

// Callers bound every request with their own abort signal (monitors up to 60 s), so the
// connector's own connect timeout only has to stop sockets nobody waits for any more.
const CONNECT_TIMEOUT_MS = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 4_000;

/**
 * Resolves every address of a host and keeps only the public ones, so the socket connects to an
 * address that was checked (no gap for DNS rebinding between a check and the connect).
 */
const publicOnlyLookup: LookupFunction = (hostname, options: LookupOptions, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, []);
      return;
    }
    const allowed = addresses.filter((entry) => isPublicAddress(entry.address));
    const first = allowed[0];
    if (first === undefined) {
      callback(new BlockedAddressError(hostname, addresses[0]?.address ?? hostname), []);
      return;
    }
    if (options.all) callback(null, allowed);
    else callback(null, first.address, first.family);
  });
};

/**
 * An undici keep-alive Agent for requests to user-supplied URLs (monitors, Slack, webhooks).
 * Unless private networks are allowed, every connection — including each redirect hop — is
 * refused when the address it would connect to is not public (SSRF guard).
 */
export function createOutboundAgent(options: OutboundAgentOptions): Agent {
  const connector = buildConnector({
    timeout: CONNECT_TIMEOUT_MS,
    ...(options.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup }),
  });
  const connect: buildConnector.connector = (target, callback) => {
    // IP literals never reach the lookup function, so they are checked here.
    if (
      !options.allowPrivateNetworks &&
      isIP(target.hostname) &&
      !isPublicAddress(target.hostname)
    ) {
      callback(new BlockedAddressError(target.hostname, target.hostname), null);
      return;
    }
    connector(target, callback);
  };
  return new Agent({
    connect,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    ...(options.connections === undefined ? {} : { connections: options.connections }),
  });
}
