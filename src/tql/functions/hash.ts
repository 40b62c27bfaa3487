import { atLeast, CI, definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("hash");

/** Non-cryptographic hashes of any number of arguments of any type. */
const FAST_HASHES: readonly (readonly [name: string, what: string])[] = [
  ["cityHash64", "CityHash, 64-bit"],
  ["sipHash64", "SipHash, 64-bit"],
  ["sipHash128", "SipHash, 128-bit (FixedString(16))"],
  ["xxHash32", "xxHash, 32-bit"],
  ["xxHash64", "xxHash, 64-bit"],
  ["xxh3", "XXH3, 64-bit"],
  ["murmurHash2_32", "MurmurHash2, 32-bit"],
  ["murmurHash2_64", "MurmurHash2, 64-bit"],
  ["murmurHash3_32", "MurmurHash3, 32-bit"],
  ["murmurHash3_64", "MurmurHash3, 64-bit"],
  ["murmurHash3_128", "MurmurHash3, 128-bit (FixedString(16))"],
  ["farmHash64", "FarmHash, 64-bit"],
  ["farmFingerprint64", "FarmHash Fingerprint64, stable across platforms"],
  ["metroHash64", "MetroHash, 64-bit"],
  ["wyHash64", "wyHash, 64-bit"],
  ["halfMD5", "First 8 bytes of MD5 as a UInt64"],
];

export const HASH_FUNCTIONS: readonly FunctionDef[] = [
  ...FAST_HASHES.map(([name, what]) => fn(name, atLeast(0), what)),
  fn("intHash32", 1, "Fast 32-bit hash of an integer"),
  fn("intHash64", 1, "Fast 64-bit hash of an integer"),
  fn("MD5", 1, "MD5 digest (FixedString(16); hex() for text)"),
  fn("SHA1", 1, "SHA-1 digest (FixedString(20))"),
  fn("SHA224", 1, "SHA-224 digest (FixedString(28))"),
  fn("SHA256", 1, "SHA-256 digest (FixedString(32))"),
  fn("SHA512", 1, "SHA-512 digest (FixedString(64))"),
  fn("CRC32", 1, "CRC-32 checksum", CI),
  fn("CRC64", 1, "CRC-64 checksum", CI),
];
