import { definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("ip");

export const IP_FUNCTIONS: readonly FunctionDef[] = [
  fn("toIPv4", 1, "Converts text or a number to IPv4"),
  fn("toIPv4OrNull", 1, "toIPv4, NULL when it does not parse"),
  fn("toIPv4OrZero", 1, "toIPv4, 0.0.0.0 when it does not parse"),
  fn("toIPv6", 1, "Converts text to IPv6 (IPv4 addresses become ::ffff:a.b.c.d)"),
  fn("toIPv6OrNull", 1, "toIPv6, NULL when it does not parse"),
  fn("toIPv6OrZero", 1, "toIPv6, :: when it does not parse"),
  fn("isIPv4String", 1, "Whether the text is an IPv4 address"),
  fn("isIPv6String", 1, "Whether the text is an IPv6 address"),
  fn("isIPAddressInRange", 2, "Whether an address is in a CIDR range: ('10.1.2.3', '10.0.0.0/8')"),
  fn("IPv4CIDRToRange", 2, "(first, last) IPv4 of a prefix: (ip, prefix_length)"),
  fn("IPv6CIDRToRange", 2, "(first, last) IPv6 of a prefix: (ip, prefix_length)"),
  fn("IPv4NumToString", 1, "UInt32 to dotted IPv4 text"),
  fn("IPv4StringToNum", 1, "Dotted IPv4 text to UInt32; error when it does not parse"),
  fn("IPv4StringToNumOrNull", 1, "IPv4StringToNum, NULL when it does not parse"),
  fn("IPv4NumToStringClassC", 1, "IPv4 text with the last octet masked as xxx"),
  fn("IPv4ToIPv6", 1, "UInt32 IPv4 to its IPv4-mapped IPv6 binary form"),
  fn("IPv6NumToString", 1, "Binary IPv6 (FixedString(16)) to text"),
  fn("IPv6StringToNum", 1, "IPv6 text to binary FixedString(16)"),
  fn("IPv6StringToNumOrNull", 1, "IPv6StringToNum, NULL when it does not parse"),
  fn("cutIPv6", 3, "IPv6 text with trailing bytes zeroed: (ip, bytes_v6, bytes_v4)"),
];
