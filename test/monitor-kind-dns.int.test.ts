import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type TestDnsServer } from "./helpers/dns-server.js";
import { runKindCheck, verdicts } from "./helpers/kind-check.js";

/** dns monitors (docs/monitor-kinds.md#dns) against a local DNS server. */
describe("dns monitor", () => {
  let dns: TestDnsServer;
  const check = (input: Record<string, unknown>, allowPrivateTargets = true) =>
    runKindCheck(
      { type: "dns", resolver: dns.resolver, timeoutSeconds: 2, ...input },
      { allowPrivateTargets },
    );

  beforeAll(async () => {
    dns = await startDnsServer({
      "vigil.test": [
        { type: "A", value: "192.0.2.10" },
        { type: "A", value: "192.0.2.11" },
        { type: "AAAA", value: "2001:db8::1" },
        { type: "MX", priority: 20, exchange: "backup.vigil.test" },
        { type: "MX", priority: 10, exchange: "mail.vigil.test" },
        { type: "TXT", value: "v=spf1 -all" },
        { type: "TXT", value: `long=${"x".repeat(300)}` },
      ],
      "www.vigil.test": [{ type: "CNAME", value: "vigil.test" }],
      "broken.vigil.test": "servfail",
      "slow.vigil.test": "silent",
    });
  });
  afterAll(() => dns.close());

  it("resolves A records; by default it passes with at least one answer", async () => {
    const result = await check({ domain: "vigil.test", recordType: "A" });
    expect(result.passed).toBe(true);
    expect(result.step).toMatchObject({
      method: "DNS",
      url: "dns A vigil.test",
      status: "passed",
      statusCode: null,
      transportError: null,
      responseBody: "192.0.2.10\n192.0.2.11",
    });
    expect(result.step.assertions[0]).toMatchObject({
      type: "answer_count",
      operator: "greater_than",
      expected: "0",
      actual: "2",
      passed: true,
    });
    expect(dns.asked).toContain("A vigil.test");
  });

  it("asserts on AAAA, CNAME, MX and TXT answers: any answer may match", async () => {
    const aaaa = await check({
      domain: "vigil.test",
      recordType: "AAAA",
      assertions: [{ type: "answer", operator: "equals", value: "2001:db8::1" }],
    });
    expect(aaaa.passed).toBe(true);
    const cname = await check({
      domain: "www.vigil.test",
      recordType: "CNAME",
      assertions: [{ type: "answer", operator: "equals", value: "vigil.test" }],
    });
    expect(cname.step.responseBody).toBe("vigil.test");
    expect(cname.passed).toBe(true);
    const mx = await check({
      domain: "vigil.test",
      recordType: "MX",
      assertions: [
        { type: "answer", operator: "equals", value: "10 mail.vigil.test" },
        { type: "answer_count", operator: "equals", value: 2 },
      ],
    });
    // Sorted by priority, as "priority exchange".
    expect(mx.step.responseBody).toBe("10 mail.vigil.test\n20 backup.vigil.test");
    expect(verdicts(mx.step)).toEqual(["answer passed", "answer_count passed"]);
    const txt = await check({
      domain: "vigil.test",
      recordType: "TXT",
      assertions: [
        { type: "answer", operator: "matches", value: "^v=spf1 " },
        { type: "answer", operator: "contains", value: "x".repeat(300) },
      ],
    });
    expect(verdicts(txt.step)).toEqual(["answer passed", "answer passed"]);
  });

  it("fails an assertion no answer satisfies, and not_* when any answer does", async () => {
    const result = await check({
      domain: "vigil.test",
      recordType: "A",
      assertions: [
        { type: "answer", operator: "equals", value: "192.0.2.99" },
        { type: "answer", operator: "not_equals", value: "192.0.2.11" },
        { type: "answer", operator: "not_contains", value: "198.51." },
        { type: "answer_count", operator: "less_than", value: "2" },
      ],
    });
    expect(result.passed).toBe(false);
    expect(verdicts(result.step)).toEqual([
      "answer failed",
      "answer failed",
      "answer passed",
      "answer_count failed",
    ]);
    expect(result.step.assertions[0]?.message).toBe('no answer equals "192.0.2.99"');
    expect(result.step.assertions[3]?.message).toBe("2 answers, not fewer than 2");
  });

  it("NXDOMAIN and a name without records of the type have no answers", async () => {
    const missing = await check({ domain: "nope.vigil.test", recordType: "A" });
    expect(missing.passed).toBe(false);
    expect(missing.step.transportError).toBeNull();
    expect(missing.step.responseBody).toBe("the name does not exist (NXDOMAIN)");
    expect(missing.step.assertions[0]).toMatchObject({ actual: "0", passed: false });
    const absent = await check({
      domain: "nope.vigil.test",
      recordType: "A",
      assertions: [{ type: "answer_count", operator: "equals", value: "0" }],
    });
    expect(absent.passed).toBe(true);
    const noData = await check({ domain: "www.vigil.test", recordType: "TXT" });
    expect(noData.passed).toBe(false);
    expect(noData.step.responseBody).toBe("no records of this type");
  });

  it("a failing or silent resolver fails the check without assertions", async () => {
    const failing = await check({ domain: "broken.vigil.test", recordType: "A" });
    expect(failing.passed).toBe(false);
    expect(failing.step.transportError?.code).toBe("dns");
    expect(failing.step.transportError?.message).toMatch(/ESERVFAIL/);
    expect(failing.step.assertions).toEqual([]);
    const started = Date.now();
    const silent = await check({ domain: "slow.vigil.test", recordType: "A", timeoutSeconds: 1 });
    expect(silent.step.transportError?.code).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("with the SSRF guard on, a private resolver is refused before it is asked", async () => {
    const before = dns.asked.length;
    const result = await check({ domain: "vigil.test", recordType: "A" }, false);
    expect(result.step.transportError).toMatchObject({ code: "blocked_address" });
    expect(result.step.transportError?.message).toMatch(/VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS/);
    expect(dns.asked.length).toBe(before);
  });
});
