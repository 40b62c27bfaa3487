import { describe, expect, it } from "vitest";
import { addressBucket } from "./client-address.js";

describe("addressBucket", () => {
  it("keeps IPv4 (and IPv4-mapped IPv6) as it is", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::FFFF:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts IPv6 by its /64, however it is written", () => {
    for (const address of ["2001:db8:1:2:aaaa::1", "2001:0db8:0001:0002:ffff:1:2:3"])
      expect(addressBucket(address)).toBe("2001:db8:1:2::/64");
    for (const address of [
      "2001:db8:0:1::1",
      "2001:db8:0:1:ffff:ffff:ffff:ffff",
      "2001:0DB8:0000:0001:0000:0000:0000:0002",
      "2001:db8::1:0:0:0:3",
    ])
      expect(addressBucket(address)).toBe("2001:db8:0:1::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("2001:db8:0:2::1")).toBe("2001:db8:0:2::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressBucket("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(addressBucket("1:2:3::4.5.6.7")).toBe("1:2:3:0::/64");
    expect(addressBucket("1:2:3:4:5:6:7:8")).toBe("1:2:3:4::/64");
  });
});
