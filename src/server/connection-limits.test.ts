import { describe, expect, it } from "vitest";
import { addressKey, shedMargin } from "./connection-limits.js";

describe("addressKey", () => {
  it("counts IPv4 addresses one by one, IPv4-mapped ones as IPv4", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts IPv6 addresses by their /64, however they are written", () => {
    const key = "2001:db8:0:1::/64";
    for (const address of [
      "2001:db8:0:1::1",
      "2001:db8:0:1:ffff:ffff:ffff:ffff",
      "2001:0DB8:0000:0001:0000:0000:0000:0002",
      "2001:db8::1:0:0:0:3",
    ])
      expect(addressKey(address)).toBe(key);
    expect(addressKey("2001:db8:0:2::1")).toBe("2001:db8:0:2::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1")).toBe("fe80:0:0:0::/64");
    expect(addressKey("1:2:3::4.5.6.7")).toBe("1:2:3:0::/64");
    expect(addressKey("1:2:3:4:5:6:7:8")).toBe("1:2:3:4::/64");
  });
});

describe("shedMargin", () => {
  it("starts shedding 5 % below the cap, at least one below", () => {
    expect(shedMargin(10_000)).toBe(500);
    expect(shedMargin(40)).toBe(2);
    expect(shedMargin(5)).toBe(1);
  });
});
