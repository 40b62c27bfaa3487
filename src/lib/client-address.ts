import { isIPv6 } from "node:net";

/**
 * The address a per-client limit counts: IPv4 as is (IPv4-mapped IPv6 too); IPv6 by its /64,
 * one subscriber's prefix, which a host rotates through freely (RFC 4941), so one line counts as
 * one client. A zone id (`fe80::1%eth0`) is dropped. Used by the connection cap and the sign-in
 * limits alike.
 */
export function addressBucket(address: string): string {
  const bare = (address.split("%", 1)[0] ?? address).toLowerCase();
  if (!isIPv6(bare)) return address;
  if (bare.startsWith("::ffff:") && bare.includes(".")) return bare.slice(7);
  const [head = "", tail] = bare.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  // An embedded IPv4 tail (`64:ff9b::1.2.3.4`) stands for two groups.
  const rightGroups = right.length + (right.at(-1)?.includes(".") ? 1 : 0);
  const zeros = Array<string>(Math.max(0, 8 - left.length - rightGroups)).fill("0");
  const prefix = [...left, ...zeros, ...right]
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(":")}::/64`;
}
