import { describe, expect, it } from "vitest";
import { UpdateMonitorInput } from "../contracts/monitors.js";
import { toDefinition } from "./definition.js";
import { issuePaths, issues, okAny } from "./monitor-input.test-helper.js";

/** The parsed input and the definition of any kind, read field by field. */
const fields = (input: unknown) => okAny(input) as Record<string, unknown>;
const defined = (input: unknown) =>
  toDefinition(okAny(input)) as unknown as Record<string, unknown>;

// The input of the kinds that are not HTTP steps (contracts/monitor-kinds.ts), as the API checks it.

const tcp = (over: Record<string, unknown> = {}) => ({
  name: "Postgres",
  type: "tcp",
  host: "db.example.com",
  port: 5432,
  ...over,
});
const dns = (over: Record<string, unknown> = {}) => ({
  name: "Apex",
  type: "dns",
  domain: "example.com",
  recordType: "A",
  ...over,
});
const tls = (over: Record<string, unknown> = {}) => ({
  name: "Cert",
  type: "tls",
  host: "example.com",
  ...over,
});
const heartbeat = (over: Record<string, unknown> = {}) => ({
  name: "Nightly backup",
  type: "heartbeat",
  period: "1d",
  ...over,
});

describe("type", () => {
  it("names the kinds when the type is missing or unknown, and coming soon for announced ones", () => {
    const { type: _type, ...untyped } = tcp();
    expect(issues(untyped)).toEqual([
      "type: choose a type: 'api', 'flow', 'tcp', 'dns', 'tls', 'heartbeat'",
    ]);
    expect(issues(tcp({ type: "grpc" }))).toEqual([
      "type: must be one of 'api', 'flow', 'tcp', 'dns', 'tls', 'heartbeat'",
    ]);
    expect(issues(tcp({ type: "browser" }))[0]).toMatch(/^type: browser checks are coming soon/);
  });

  it("every kind shares the common fields, with escalationPolicyId null by default", () => {
    for (const input of [tcp(), dns(), tls(), heartbeat()])
      expect(fields(input)).toMatchObject({
        alertAfter: 1,
        timeoutSeconds: 10,
        locations: ["default"],
        channelIds: [],
        escalationPolicyId: null,
      });
    expect(fields(tcp({ escalationPolicyId: "esc_1" })).escalationPolicyId).toBe("esc_1");
    expect(issuePaths(tcp({ escalationPolicyId: "" }))).toEqual(["escalationPolicyId"]);
  });

  it("refuses a field of another kind, naming it", () => {
    expect(issuePaths(tcp({ steps: [] }))).toEqual([""]);
    expect(issues(dns({ port: 53 }))[0]).toMatch(/port/);
  });
});

describe("tcp", () => {
  it("takes a host name or an IP address and a port", () => {
    expect(fields(tcp())).toMatchObject({ host: "db.example.com", port: 5432, frequency: "5m" });
    expect(fields(tcp({ host: "10.0.0.1" })).host).toBe("10.0.0.1");
    expect(fields(tcp({ host: "2001:db8::1" })).host).toBe("2001:db8::1");
    for (const host of ["", "https://db.example.com", "db.example.com:5432", "a b", "[::1]"])
      expect(issuePaths(tcp({ host }))).toEqual(["host"]);
    for (const port of [0, 65536, 1.5, "5432", undefined])
      expect(issuePaths(tcp({ port }))).toEqual(["port"]);
  });

  it("send and expect are texts of at most 4 KiB; empty ones are not kept", () => {
    const definition = defined(tcp({ send: "PING\r\n", expect: "+PONG" }));
    expect(definition).toMatchObject({ send: "PING\r\n", expect: "+PONG" });
    const empty = defined(tcp({ send: "", expect: "" }));
    expect(empty).not.toHaveProperty("send");
    expect(empty).not.toHaveProperty("expect");
    expect(issues(tcp({ send: "é".repeat(2049) }))).toEqual(["send: at most 4096 bytes (UTF-8)"]);
    expect(issuePaths(tcp({ expect: 42 }))).toEqual(["expect"]);
  });
});

describe("dns", () => {
  it("resolves a name of a record type, by default asserting at least one answer", () => {
    const definition = defined(dns());
    expect(definition).toMatchObject({
      type: "dns",
      domain: "example.com",
      recordType: "A",
      assertions: [{ type: "answer_count", operator: "greater_than", value: "0" }],
    });
    expect(definition).not.toHaveProperty("resolver");
    for (const recordType of ["AAAA", "CNAME", "MX", "TXT"])
      expect(fields(dns({ recordType })).recordType).toBe(recordType);
    expect(issues(dns({ recordType: "SRV" }))).toEqual([
      "recordType: must be one of A, AAAA, CNAME, MX, TXT",
    ]);
    expect(fields(dns({ domain: "_dmarc.example.com." })).domain).toBe("_dmarc.example.com.");
    for (const domain of ["", "exa mple.com", "http://example.com", "-bad-.com"])
      expect(issuePaths(dns({ domain }))).toEqual(["domain"]);
  });

  it("takes a resolver as an IP address with an optional port", () => {
    for (const resolver of ["1.1.1.1", "1.1.1.1:5353", "2606:4700::1111", "[2606:4700::1111]:53"])
      expect(fields(dns({ resolver })).resolver).toBe(resolver);
    expect(defined(dns({ resolver: "" }))).not.toHaveProperty("resolver");
    for (const resolver of ["dns.google", "1.1.1.1:0", "1.1.1.1:70000", "[::1", "1.2.3"])
      expect(issuePaths(dns({ resolver }))).toEqual(["resolver"]);
  });

  it("checks each assertion's operator, count and pattern", () => {
    const assertions = [
      { type: "answer", operator: "contains", value: "192.0.2." },
      { type: "answer", operator: "not_equals", value: "10.0.0.1" },
      { type: "answer_count", operator: "equals", value: 2 },
    ];
    expect(defined(dns({ assertions }))).toMatchObject({
      assertions: [assertions[0], assertions[1], { ...assertions[2], value: "2" }],
    });
    expect(
      issues(dns({ assertions: [{ type: "answer", operator: "less_than", value: "1" }] })),
    ).toEqual([
      "assertions.0.operator: answer assertions take equals, not_equals, contains, not_contains, matches",
    ]);
    expect(
      issuePaths(dns({ assertions: [{ type: "answer_count", operator: "equals", value: "two" }] })),
    ).toEqual(["assertions.0.value"]);
    expect(
      issuePaths(dns({ assertions: [{ type: "answer", operator: "matches", value: "(" }] })),
    ).toEqual(["assertions.0.value"]);
    expect(
      issuePaths(dns({ assertions: [{ type: "status_code", operator: "equals", value: "200" }] })),
    ).toEqual(["assertions.0.type"]);
  });
});

describe("tls", () => {
  it("checks port 443 and 14 days by default", () => {
    expect(defined(tls())).toMatchObject({
      host: "example.com",
      port: 443,
      minDaysLeft: 14,
    });
    expect(
      fields(tls({ port: 8443, minDaysLeft: 0, servername: "api.example.com" })),
    ).toMatchObject({
      port: 8443,
      minDaysLeft: 0,
      servername: "api.example.com",
    });
    for (const minDaysLeft of [-1, 366, 1.5])
      expect(issuePaths(tls({ minDaysLeft }))).toEqual(["minDaysLeft"]);
    expect(issuePaths(tls({ servername: "not a name" }))).toEqual(["servername"]);
  });

  it("takes PEM CA certificates", () => {
    const ca = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    expect(defined(tls({ ca })).ca).toBeDefined();
    expect(defined(tls({ ca: "" }))).not.toHaveProperty("ca");
    expect(issues(tls({ ca: "hello" }))).toEqual([
      "ca: must be PEM certificates (-----BEGIN CERTIFICATE-----)",
    ]);
  });
});

describe("heartbeat", () => {
  it("takes a period and a grace as durations, kept in their shortest form", () => {
    expect(defined(heartbeat({ period: "60m", grace: "90s" }))).toMatchObject({
      type: "heartbeat",
      period: "1h",
      grace: "90s",
    });
    expect(defined(heartbeat())).toMatchObject({ period: "1d", grace: "5m" });
    expect(defined(heartbeat({ grace: "0s" })).grace).toBe("0s");
  });

  it("refuses durations out of range or malformed, and has no frequency", () => {
    for (const period of ["59s", "31d", "1w", "1h30m", "", "60"])
      expect(issuePaths(heartbeat({ period }))).toEqual(["period"]);
    expect(issuePaths(heartbeat({ grace: "8d" }))).toEqual(["grace"]);
    expect(issuePaths(heartbeat({ frequency: "5m" }))).toEqual([""]);
    const { period: _period, ...periodless } = heartbeat();
    expect(issuePaths(periodless)).toEqual(["period"]);
  });
});

describe("UpdateMonitorInput", () => {
  it("takes any kind's fields without their defaults", () => {
    expect(UpdateMonitorInput.parse({ port: 8443 })).toEqual({ port: 8443 });
    expect(UpdateMonitorInput.parse({ minDaysLeft: 30 })).toEqual({ minDaysLeft: 30 });
    expect(UpdateMonitorInput.parse({ grace: "10m" })).toEqual({ grace: "10m" });
    expect(UpdateMonitorInput.parse({ escalationPolicyId: null })).toEqual({
      escalationPolicyId: null,
    });
    expect(UpdateMonitorInput.safeParse({ port: 0 }).success).toBe(false);
    expect(UpdateMonitorInput.safeParse({ period: "1w" }).success).toBe(false);
  });
});
