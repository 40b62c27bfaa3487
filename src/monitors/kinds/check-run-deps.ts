import type { Dispatcher } from "undici";
import type { Clock } from "../../lib/clock.js";
import type { ResolveAll } from "../../lib/http/outbound-agent.js";

/** What running a check needs, whatever its kind. */
export interface CheckRunDeps {
  /** An agent from createOutboundAgent (it applies the private-address policy): HTTP steps. */
  dispatcher: Dispatcher;
  clock: Clock;
  /** Response bytes read per request (config: monitors.maxResponseBytes); TCP reads as much. */
  maxResponseBytes: number;
  /** Bytes of a failed step's body kept in its result (config: monitors.storedBodyBytes). */
  storedBodyBytes: number;
  /** VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: off, tcp/tls/dns targets must be public addresses. */
  allowPrivateTargets: boolean;
  /** Resolves host names for tcp and tls (default dns.lookup); tests stand in names. */
  resolve?: ResolveAll;
  /** Source of trace and span ids; node:crypto by default (pooled). */
  randomBytes?: (size: number) => Buffer;
}
