import { describe, expect, it } from "vitest";
import { MONITOR_TYPES, type MonitorType } from "../src/contracts/monitor-catalog.js";
import {
  CreateMonitorInput,
  MonitorView,
  monitorFieldNames,
  UpdateMonitorInput,
} from "../src/contracts/monitors.js";
import type { Draft } from "../web/src/screens/monitors/draft.js";
import {
  emptyDraft,
  fromMonitor,
  newDnsAssertion,
  toInput,
  withDnsType,
} from "../web/src/screens/monitors/kind-drafts.js";

// The monitor form's kind registry (web/src/screens/monitors/kind-drafts.ts): each kind's draft
// becomes a request body the API's own schema accepts, carrying only that kind's fields (an
// update naming another kind's field is refused), and a stored monitor reads back into the form
// unchanged.

/** A draft of each kind as a person fills the form in. */
const filled: Record<MonitorType, (d: Draft) => Draft> = {
  api: (d) => ({ ...d, steps: d.steps.map((s) => ({ ...s, url: "https://api.example.com/" })) }),
  flow: (d) => ({
    ...d,
    type: "flow",
    steps: d.steps.map((s) => ({ ...s, url: "https://api.example.com/" })),
  }),
  tcp: (d) => ({
    ...d,
    type: "tcp",
    tcp: { host: " db.example.com ", port: "5432", send: "PING\n", expect: "PONG" },
  }),
  dns: (d) => ({
    ...d,
    type: "dns",
    dns: { ...d.dns, domain: "example.com", recordType: "MX", resolver: "1.1.1.1:53" },
  }),
  tls: (d) => ({ ...d, type: "tls", tls: { ...d.tls, host: "www.example.com" } }),
  heartbeat: (d) => ({ ...d, type: "heartbeat", heartbeat: { period: "1d", grace: "30m" } }),
};

const draftOf = (type: MonitorType): Draft => filled[type]({ ...emptyDraft(), name: "Probe" });

/** The view the API would answer for a saved input (only what fromMonitor reads). */
function viewOf(input: Record<string, unknown>): MonitorView {
  const parsed = CreateMonitorInput.parse(input) as Record<string, unknown>;
  return MonitorView.parse({
    id: "mon_1",
    projectId: "prj_1",
    target: "",
    frequency: null,
    steps: [],
    status: "active",
    health: "pending",
    failureStreak: 0,
    lastCheckedAt: null,
    lastResultId: null,
    lastResult: null,
    openIncidentId: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...parsed,
  });
}

describe("the monitor form's kinds", () => {
  it.each(MONITOR_TYPES)(
    "%s: the draft is a body the API accepts, with only its kind's fields",
    (type) => {
      const input = toInput(draftOf(type)) as Record<string, unknown>;
      const parsed = CreateMonitorInput.safeParse(input);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(input.type).toBe(type);
      const allowed = monitorFieldNames(type);
      expect(Object.keys(input).filter((key) => !allowed.has(key))).toEqual([]);
      // The same body is a valid update of a monitor of that kind.
      expect(UpdateMonitorInput.safeParse(input).success).toBe(true);
    },
  );

  it("sends each kind's own fields as the API names them", () => {
    expect(toInput(draftOf("tcp"))).toMatchObject({
      host: "db.example.com",
      port: 5432,
      send: "PING\n",
      expect: "PONG",
      frequency: "5m",
      escalationPolicyId: null,
    });
    expect(toInput(draftOf("dns"))).toMatchObject({
      domain: "example.com",
      recordType: "MX",
      resolver: "1.1.1.1:53",
      assertions: [{ type: "answer_count", operator: "greater_than", value: "0" }],
    });
    expect(toInput(draftOf("tls"))).toMatchObject({
      host: "www.example.com",
      port: 443,
      minDaysLeft: 14,
    });
    const heartbeat = toInput(draftOf("heartbeat"));
    expect(heartbeat).toMatchObject({ period: "1d", grace: "30m" });
    expect(heartbeat).not.toHaveProperty("frequency");
  });

  it("sends a number left empty as NaN (null in JSON), so the server names the field", () => {
    const draft = draftOf("tcp");
    const input = toInput({ ...draft, tcp: { ...draft.tcp, port: " " } });
    expect(JSON.parse(JSON.stringify(input)).port).toBeNull();
    const parsed = CreateMonitorInput.safeParse(JSON.parse(JSON.stringify(input)));
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["port"]);
  });

  it("sends empty send/expect/servername/ca/resolver as typed (an update clears them)", () => {
    const tcp = toInput({
      ...draftOf("tcp"),
      tcp: { host: "h.example", port: "1", send: "", expect: "" },
    });
    expect(tcp).toMatchObject({ send: "", expect: "" });
    expect(CreateMonitorInput.safeParse(tcp).success).toBe(true);
    const tls = toInput(draftOf("tls"));
    expect(tls).toMatchObject({ servername: "", ca: "" });
    expect(CreateMonitorInput.safeParse(tls).success).toBe(true);
    const dns = draftOf("dns");
    const cleared = toInput({ ...dns, dns: { ...dns.dns, resolver: "  " } });
    expect(cleared).toMatchObject({ resolver: "" });
    expect(CreateMonitorInput.safeParse(cleared).success).toBe(true);
  });

  it.each(MONITOR_TYPES)("%s: a saved monitor reads back into the same body", (type) => {
    const input = toInput(draftOf(type)) as Record<string, unknown>;
    const again = toInput(fromMonitor(viewOf(input))) as Record<string, unknown>;
    expect(again).toEqual(toInput(fromMonitor(viewOf(again))));
    expect(CreateMonitorInput.parse(again)).toEqual(CreateMonitorInput.parse(input));
  });

  it("keeps a DNS assertion's operator only when its new type allows it", () => {
    const answer = { ...newDnsAssertion("answer"), operator: "equals" as const };
    expect(withDnsType(answer, "answer_count").operator).toBe("equals");
    const contains = { ...newDnsAssertion("answer"), operator: "contains" as const };
    expect(withDnsType(contains, "answer_count").operator).toBe("less_than");
    expect(newDnsAssertion("answer_count").operator).toBe("less_than");
  });
});
