import { describe, expect, it } from "vitest";
import {
  BlockedAddressError,
  isLoopbackAddress,
  isLoopbackHost,
  isLoopbackUrlHost,
  isPublicAddress,
  privateUrlHost,
} from "./address-policy.js";

describe("isPublicAddress", () => {
  it.each([
    ["0.0.0.0", "this network"],
    ["0.1.2.3", "this network"],
    ["10.0.0.1", "private 10/8"],
    ["10.255.255.255", "private 10/8"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.254", "CGNAT"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.0.1", "link-local"],
    ["172.16.0.1", "private 172.16/12"],
    ["172.31.255.255", "private 172.16/12"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.10", "TEST-NET-1"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["192.168.1.1", "private 192.168/16"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["198.51.100.7", "TEST-NET-2"],
    ["203.0.113.9", "TEST-NET-3"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "bracketed loopback"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex form"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["::ffff:10.1.2.3", "IPv4-mapped private"],
    ["::127.0.0.1", "IPv4-compatible (deprecated)"],
    ["::ffff:0:8.8.8.8", "IPv4-translated"],
    ["64:ff9b::127.0.0.1", "NAT64 of loopback"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of metadata"],
    ["64:ff9b:1::1", "NAT64 local use"],
    ["100::1", "discard-only"],
    ["2001::1", "Teredo"],
    ["2001:2::1", "benchmarking"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation (RFC 9637)"],
    ["2002:7f00:0001::1", "6to4 of loopback"],
    ["2002:c0a8:0101::", "6to4 of 192.168.1.1"],
    ["fc00::1", "unique local"],
    ["fd12:3456:789a::1", "unique local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with zone"],
    ["febf::1", "link-local"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "multicast"],
    ["ff05::1:3", "multicast"],
    ["4000::1", "unassigned"],
    ["localhost", "not an IP address"],
    ["", "empty"],
    ["1.2.3", "malformed"],
    ["256.1.1.1", "malformed"],
  ])("%s is not public (%s)", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    "1.1.1.1",
    "8.8.8.8",
    "93.184.216.34",
    "100.63.255.255", // just below CGNAT
    "100.128.0.0", // just above CGNAT
    "172.15.255.255", // just below 172.16/12
    "172.32.0.0", // just above 172.16/12
    "169.253.255.255",
    "192.0.1.1",
    "192.169.0.1",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001:80b::200e",
    "[2606:4700:4700::1111]",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::8.8.8.8",
    "2002:0808:0808::1", // 6to4 of 8.8.8.8
  ])("%s is public", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe("BlockedAddressError", () => {
  it("names the host, the address and the setting that allows it", () => {
    const error = new BlockedAddressError("internal.example", "10.0.0.5");
    expect(error.code).toBe("blocked_address");
    expect(error.message).toContain("internal.example");
    expect(error.message).toContain("10.0.0.5");
    expect(error.message).toContain(
      "set VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS=true to allow private targets",
    );
    expect(new BlockedAddressError("127.0.0.1", "127.0.0.1").message).toMatch(/^127\.0\.0\.1 is/);
  });
});

describe("privateUrlHost", () => {
  it.each([
    ["http://127.0.0.1/x", "127.0.0.1"],
    ["http://[::1]:8080/", "[::1]"],
    ["http://10.0.0.1/", "10.0.0.1"],
    ["http://169.254.169.254/latest/meta-data", "169.254.169.254"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://2130706433/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
    ["http://localhost/", "localhost"],
    ["http://LOCALHOST.:3000/", "localhost."],
    ["https://api.localhost/", "api.localhost"],
    ["http://printer.local/", "printer.local"],
    ["http://metadata.google.internal/computeMetadata/v1/", "metadata.google.internal"],
    ["http://router.home.arpa/", "router.home.arpa"],
  ])("%s is private (%s)", (url, host) => {
    expect(privateUrlHost(url)).toBe(host);
  });

  it.each([
    "https://example.com/health",
    "http://93.184.216.34/",
    "http://[2606:4700::1111]/",
    "http://localhost.example.com/",
    // Only knowable when the flow runs: the host comes from an earlier step.
    "http://{{host}}/orders",
    "http://127.0.0.1.{{suffix}}/",
    "not a url",
  ])("%s is not known to be private", (url) => {
    expect(privateUrlHost(url)).toBeUndefined();
  });
});

describe("isLoopbackUrlHost", () => {
  it.each([
    "http://localhost:8090/hooks",
    "http://LOCALHOST/",
    "http://127.0.0.1:8090/",
    "http://127.1.2.3/",
    "http://0x7f.1/", // the URL parser reads it as 127.0.0.1
    "http://[::1]:8090/",
    "http://[0:0::1]/",
  ])("accepts %s: localhost or a loopback IP literal", (url) => {
    expect(isLoopbackUrlHost(new URL(url))).toBe(true);
  });

  it.each([
    // Resolved by the system's resolver, which may ask DNS: a public address could answer.
    "http://x.localhost/hooks",
    "http://localhost./",
    "http://dev.local/",
    "http://127.0.0.1.nip.io/",
    "http://10.0.0.7/",
    "http://[::ffff:7f00:1]/",
    "http://0.0.0.0/",
    "http://example.com/",
  ])("refuses %s", (url) => {
    expect(isLoopbackUrlHost(new URL(url))).toBe(false);
  });
});

describe("isLoopbackAddress and isLoopbackHost", () => {
  it("know 127.0.0.0/8 and ::1 (also IPv4-mapped), and localhost as a listen host only", () => {
    for (const ip of [
      "127.0.0.1",
      "127.255.0.9",
      "::1",
      "[::1]",
      "0:0:0:0:0:0:0:1",
      "::ffff:127.0.0.1",
    ])
      expect(isLoopbackAddress(ip)).toBe(true);
    for (const ip of ["0.0.0.0", "::", "10.0.0.1", "128.0.0.1", "::ffff:10.0.0.1", "localhost"])
      expect(isLoopbackAddress(ip)).toBe(false);
    expect(isLoopbackHost("localhost")).toBe(true);
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("0.0.0.0")).toBe(false);
    expect(isLoopbackHost("x.localhost")).toBe(false);
  });
});
