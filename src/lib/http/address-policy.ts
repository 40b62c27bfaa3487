import { BlockList, isIP } from "node:net";

/**
 * IPv4 ranges that are not publicly routable (IANA special-purpose registry): loopback,
 * private, link-local (incl. the 169.254.169.254 metadata service), CGNAT, test and
 * benchmarking nets, multicast, reserved and broadcast.
 */
const IPV4_BLOCKED: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, incl. 255.255.255.255
];

/** Special ranges inside 2000::/3, the only IPv6 block routed on the public internet. */
const IPV6_BLOCKED_GLOBAL: readonly [string, number][] = [
  ["2001::", 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation (RFC 9637)
];

const ipv4Blocked = new BlockList();
for (const [network, prefix] of IPV4_BLOCKED) ipv4Blocked.addSubnet(network, prefix, "ipv4");
const ipv6Blocked = new BlockList();
for (const [network, prefix] of IPV6_BLOCKED_GLOBAL) ipv6Blocked.addSubnet(network, prefix, "ipv6");

/** The 16 bytes of an IPv6 address (already validated by isIP), or undefined. */
function ipv6Bytes(address: string): Uint8Array | undefined {
  let text = address;
  const bytes = new Uint8Array(16);
  let tail: number[] = [];
  const dotted = text.lastIndexOf(":");
  if (text.includes(".", dotted)) {
    // An embedded dotted quad (::ffff:1.2.3.4) fills the last 32 bits.
    tail = text
      .slice(dotted + 1)
      .split(".")
      .map(Number);
    text = `${text.slice(0, dotted + 1)}0:0`;
  }
  const [head = "", rest] = text.split("::");
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...new Array<string>(8 - left.length - right.length).fill("0"), ...right];
  if (all.length !== 8) return undefined;
  for (const [i, group] of all.entries()) {
    const value = Number.parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  }
  for (const [i, octet] of tail.entries()) bytes[12 + i] = octet;
  return bytes;
}

const dottedQuad = (bytes: Uint8Array, at: number) => Array.from(bytes.slice(at, at + 4)).join(".");
const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  prefix.every((byte, i) => bytes[i] === byte);

function isPublicIpv6(address: string): boolean {
  const bytes = ipv6Bytes(address);
  if (!bytes) return false;
  const zeros = (n: number) => new Array<number>(n).fill(0);
  // IPv4-mapped ::ffff:a.b.c.d and NAT64 64:ff9b::/96 reach the embedded IPv4 address.
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return isPublicIpv4(dottedQuad(bytes, 12));
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, ...zeros(8)]))
    return isPublicIpv4(dottedQuad(bytes, 12));
  // 6to4 2002:a.b.c.d::/48 tunnels to the embedded IPv4 address.
  if (startsWith(bytes, [0x20, 0x02])) return isPublicIpv4(dottedQuad(bytes, 2));
  // Everything outside 2000::/3 is loopback, unspecified, ULA, link-local, multicast, NAT64
  // local-use, discard-only, IPv4-compatible/translated or unassigned.
  if (((bytes[0] ?? 0) & 0xe0) !== 0x20) return false;
  return !ipv6Blocked.check(address, "ipv6");
}

function isPublicIpv4(address: string): boolean {
  return !ipv4Blocked.check(address, "ipv4");
}

/**
 * True when an IP address is publicly routable. Loopback, private, link-local, CGNAT,
 * multicast, documentation, benchmarking and reserved ranges are not, and neither is anything
 * that is not an IP address. IPv6 forms that embed an IPv4 address are judged by that address.
 */
export function isPublicAddress(ip: string): boolean {
  const address = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const zone = address.indexOf("%");
  const bare = zone === -1 ? address : address.slice(0, zone);
  const version = isIP(bare);
  if (version === 4) return isPublicIpv4(bare);
  if (version === 6) return zone === -1 && isPublicIpv6(bare.toLowerCase());
  return false;
}

/** An outbound connection was refused because its target address is not public (SSRF guard). */
export class BlockedAddressError extends Error {
  readonly code = "blocked_address";

  constructor(
    readonly host: string,
    readonly address: string,
    /** The setting that lifts the guard, named in the message. */
    allowSetting = "VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS",
  ) {
    const target = host === address ? address : `${host} (${address})`;
    super(
      `${target} is a private, loopback or reserved address; ` +
        `set ${allowSetting}=true to allow private targets`,
    );
    this.name = "BlockedAddressError";
  }
}

/**
 * Names local by definition: localhost and *.localhost (RFC 6761), mDNS's .local (RFC 6762),
 * .internal (reserved for private use, e.g. metadata.google.internal) and home.arpa (RFC 8375).
 */
const LOCAL_NAME = /^(?:localhost|.+\.localhost|.+\.local|.+\.internal|(?:.+\.)?home\.arpa)\.?$/i;

/**
 * The host of a URL when it is certainly not public, known without resolving anything: an IP
 * literal in any notation the URL parser reads (0x7f.1, 2130706433, [::ffff:7f00:1]) that is
 * not public, or a name local by definition. Undefined for other names (they are checked when
 * connecting), for hosts with `{{placeholders}}` and for URLs that do not parse.
 */
export function privateUrlHost(url: string): string | undefined {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? "";
  if (authority.includes("{{")) return undefined;
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return undefined;
  }
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  if (isIP(bare)) return isPublicAddress(bare) ? undefined : hostname;
  return LOCAL_NAME.test(hostname) ? hostname : undefined;
}

const loopbackAddresses = new BlockList();
loopbackAddresses.addSubnet("127.0.0.0", 8, "ipv4");
loopbackAddresses.addAddress("::1", "ipv6");

/**
 * True when an IP address is this machine's loopback: 127.0.0.0/8 or ::1, or 127.0.0.0/8 in its
 * IPv4-mapped IPv6 form (::ffff:127.0.0.1). Names are not addresses: false for them.
 */
export function isLoopbackAddress(ip: string): boolean {
  const address = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const version = isIP(address);
  if (version === 4) return loopbackAddresses.check(address, "ipv4");
  if (version !== 6) return false;
  const bytes = ipv6Bytes(address.toLowerCase());
  if (!bytes) return false;
  if (startsWith(bytes, [...new Array<number>(10).fill(0), 0xff, 0xff]))
    return loopbackAddresses.check(dottedQuad(bytes, 12), "ipv4");
  return loopbackAddresses.check(address, "ipv6");
}

/**
 * Whether a listen address (http.host, grpc.host) is reachable from this machine only:
 * `localhost`, 127.0.0.0/8 or ::1. The unspecified 0.0.0.0 and :: are every interface.
 */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === "localhost" || isLoopbackAddress(host);
}

/**
 * Whether a URL's host is this machine by definition: `localhost`, or an IP literal in
 * 127.0.0.0/8 or [::1]. Never another name, not even *.localhost: a name is resolved through the
 * system's resolver, which may ask DNS. Plain http:// is judged by this when saved, and the
 * webhook transport checks that the connection really goes to a loopback address.
 */
export function isLoopbackUrlHost(url: URL): boolean {
  const hostname = url.hostname.toLowerCase();
  if (hostname === "localhost") return true;
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  if (isIP(bare) === 4) return loopbackAddresses.check(bare, "ipv4");
  return bare === "::1";
}

/**
 * A plain http:// connection was refused because its host is not, or does not resolve only to,
 * a loopback address: unencrypted requests may reach this machine only. The message names no
 * address (which address a name resolves to is the server's business).
 */
export class PlainHttpNotLoopbackError extends Error {
  readonly code = "blocked_address";

  constructor(readonly host: string) {
    super(
      "plain http:// may only reach this machine (a loopback address), and this host is not, or does not resolve only to, one; use an https:// URL",
    );
    this.name = "PlainHttpNotLoopbackError";
  }
}

/** Why a URL with a private host is refused at save time, naming the setting that allows it. */
export const privateTargetMessage = (host: string, allowSetting: string): string =>
  `${host} is a private, loopback or reserved address, which the SSRF guard refuses; ` +
  `set ${allowSetting}=true to allow private targets`;
