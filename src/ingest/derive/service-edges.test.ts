import { describe, expect, it } from "vitest";
import { HTTP_DURATION_BOUNDS_MS } from "../../telemetry/tables.js";
import { UnixTime } from "../../telemetry/unix-time.js";
import type { EdgeObservation, Row } from "../ingest-batch.js";
import { type EdgeOutcome, ServiceEdges } from "./service-edges.js";
import { summarizeEdges } from "./service-edges-rows.js";

const T = Date.UTC(2026, 2, 1, 12, 0, 0);
const MINUTE = T / 1000;
const TRACE = "a".repeat(32);

interface SpanSpec {
  service: string;
  kind: string;
  id: string;
  parent?: string;
  startMs?: number;
  ms?: number;
  error?: boolean;
  status?: number;
  attributes?: Record<string, string>;
  trace?: string;
}

/** A `traces` row as map-traces.ts makes it, with only what the pairing reads. */
const span = (s: SpanSpec): Row => ({
  trace_id: s.trace ?? TRACE,
  span_id: s.id.padStart(16, "0"),
  // Not a root unless asked: roots are entry spans of any kind.
  parent_span_id: (s.parent ?? "f0").padStart(16, "0").replace(/^0+$/, ""),
  span_kind: s.kind,
  service_name: s.service,
  timestamp: UnixTime.fromMillis(s.startMs ?? T),
  duration_ms: s.ms ?? 10,
  status: s.error ? "error" : "unset",
  http_status_code: s.status ?? 0,
  attributes: s.attributes ?? {},
});

/** A store on a hand-moved clock, counting its outcomes. */
function store(options: { waitMs?: number; maxPending?: number } = {}) {
  const clock = { now: T };
  const counts: Partial<Record<EdgeOutcome, number>> = {};
  const edges = new ServiceEdges({
    waitMs: options.waitMs ?? 10_000,
    maxPending: options.maxPending ?? 1000,
    now: () => clock.now,
    count: (outcome, n) => {
      counts[outcome] = (counts[outcome] ?? 0) + n;
    },
  });
  return { edges, clock, counts };
}

const call = (
  source: string,
  target: string,
  extra: Partial<EdgeObservation> = {},
): EdgeObservation => ({
  projectId: "p",
  minute: MINUTE,
  source,
  target,
  targetKind: "service",
  durationMs: 10,
  failed: false,
  ...extra,
});
/** An entry span of `service` (source ''). */
const entry = (service: string, extra: Partial<EdgeObservation> = {}) => call("", service, extra);

const frontendCall = span({ service: "frontend", kind: "client", id: "1", parent: "0a", ms: 30 });
const ordersServer = span({ service: "orders", kind: "server", id: "2", parent: "1", ms: 25 });

describe("service edges", () => {
  it("pairs a client span with the server span it caused, client first", () => {
    const { edges, counts } = store();
    expect(edges.observe("p", [frontendCall])).toEqual([]);
    expect(edges.size).toBe(1);
    expect(edges.observe("p", [ordersServer])).toEqual([
      entry("orders", { durationMs: 25 }),
      call("frontend", "orders", { durationMs: 30 }),
    ]);
    expect(edges.size).toBe(0);
    expect(counts).toEqual({ paired: 1 });
  });

  it("pairs them server first, with the caller's time and start", () => {
    const { edges, counts } = store();
    const late = span({
      service: "frontend",
      kind: "client",
      id: "1",
      startMs: T - 61_000,
      ms: 30,
    });
    expect(edges.observe("p", [ordersServer])).toEqual([entry("orders", { durationMs: 25 })]);
    expect(edges.observe("p", [late])).toEqual([
      call("frontend", "orders", { durationMs: 30, minute: MINUTE - 120 }),
    ]);
    expect(edges.size).toBe(0);
    expect(counts).toEqual({ paired: 1 });
  });

  it("counts a call failed when either side failed (error status or a 5xx)", () => {
    const { edges } = store();
    edges.observe("p", [
      frontendCall,
      span({ service: "web", kind: "client", id: "3", status: 503 }),
    ]);
    const out = edges.observe("p", [
      span({ service: "orders", kind: "server", id: "2", parent: "1", error: true }),
      span({ service: "orders", kind: "server", id: "4", parent: "3" }),
    ]);
    expect(out.filter((o) => o.source !== "").map((o) => [o.source, o.failed])).toEqual([
      ["frontend", true],
      ["web", true],
    ]);
    expect(out.filter((o) => o.source === "").map((o) => o.failed)).toEqual([true, false]);
  });

  it("records a database call at once, named by its system and database", () => {
    const { edges, counts } = store();
    const out = edges.observe("p", [
      span({
        service: "orders",
        kind: "client",
        id: "5",
        ms: 4,
        attributes: { "db.system": "postgresql", "db.name": "orders" },
      }),
      span({
        service: "orders",
        kind: "client",
        id: "6",
        attributes: { "db.system.name": "redis", "server.address": "cache" },
      }),
      span({
        service: "orders",
        kind: "client",
        id: "7",
        attributes: { "db.system": "mysql", "db.namespace": "users" },
      }),
    ]);
    expect(out).toEqual([
      call("orders", "postgresql/orders", { targetKind: "database", durationMs: 4 }),
      call("orders", "redis", { targetKind: "database" }),
      call("orders", "mysql/users", { targetKind: "database" }),
    ]);
    expect(edges.size).toBe(0);
    expect(counts).toEqual({ immediate: 3 });
  });

  it("makes a client span nobody answered a call to the peer it names, once its wait ends", () => {
    const { edges, clock, counts } = store({ waitMs: 5000 });
    edges.observe("p", [
      span({
        service: "checkout",
        kind: "client",
        id: "8",
        attributes: { "server.address": "api.stripe.com" },
      }),
      span({
        service: "checkout",
        kind: "client",
        id: "9",
        attributes: { "peer.service": "fraud" },
      }),
      span({
        service: "checkout",
        kind: "client",
        id: "a",
        attributes: { "url.full": "https://maps.example.org/v1?q=1" },
      }),
      span({ service: "checkout", kind: "client", id: "b" }),
    ]);
    clock.now = T + 4999;
    expect(edges.expire()).toEqual([]);
    clock.now = T + 5000;
    expect(edges.expire()).toEqual([
      call("checkout", "api.stripe.com", { targetKind: "external" }),
      call("checkout", "fraud", { targetKind: "external" }),
      call("checkout", "maps.example.org", { targetKind: "external" }),
    ]);
    expect(edges.size).toBe(0);
    expect(counts).toEqual({ external: 3, expired: 1 });
  });

  it("lets a server span that never met its caller go without an edge", () => {
    const { edges, clock, counts } = store({ waitMs: 1000 });
    edges.observe("p", [ordersServer]);
    clock.now = T + 1000;
    expect(edges.expire()).toEqual([]);
    expect(counts).toEqual({ expired: 1 });
  });

  it("expires in arrival order: a later span keeps waiting", () => {
    const { edges, clock } = store({ waitMs: 1000 });
    edges.observe("p", [frontendCall]);
    clock.now = T + 600;
    edges.observe("p", [
      span({ service: "web", kind: "client", id: "c", attributes: { "peer.service": "x" } }),
    ]);
    clock.now = T + 1000;
    expect(edges.expire()).toEqual([]);
    expect(edges.size).toBe(1);
    expect(edges.flush()).toEqual([call("web", "x", { targetKind: "external" })]);
  });

  it("sends a producer's message to its consumer, or to the message system when none answers", () => {
    const { edges, counts } = store();
    const kafka = { "messaging.system": "kafka", "messaging.destination.name": "orders" };
    edges.observe("p", [
      span({ service: "orders", kind: "producer", id: "d", attributes: kafka }),
      span({ service: "orders", kind: "producer", id: "e", attributes: kafka }),
      span({
        service: "orders",
        kind: "producer",
        id: "f",
        attributes: {
          "messaging.system": "rabbitmq",
          "messaging.destination.name": "amq.gen-1",
          "messaging.destination.temporary": "true",
        },
      }),
    ]);
    expect(
      edges.observe("p", [span({ service: "billing", kind: "consumer", id: "10", parent: "d" })]),
    ).toEqual([entry("billing"), call("orders", "billing")]);
    expect(edges.flush()).toEqual([
      call("orders", "kafka/orders", { targetKind: "messaging" }),
      call("orders", "rabbitmq", { targetKind: "messaging" }),
    ]);
    expect(counts).toEqual({ paired: 1, external: 2 });
  });

  it("finds a call from a parent of any kind in another service, when its child waits", () => {
    const { edges } = store();
    // A job's internal span in `scheduler` with server children in two services and its own.
    edges.observe("p", [
      span({ service: "reports", kind: "server", id: "11", parent: "12", ms: 40 }),
      span({ service: "mailer", kind: "server", id: "13", parent: "12", ms: 5 }),
      span({ service: "scheduler", kind: "server", id: "14", parent: "12" }),
    ]);
    expect(
      edges.observe("p", [span({ service: "scheduler", kind: "internal", id: "12" })]),
    ).toEqual([
      call("scheduler", "reports", { durationMs: 40 }),
      call("scheduler", "mailer", { durationMs: 5 }),
    ]);
    expect(edges.size).toBe(0);
  });

  it("finds a call from a parent of any kind that came first, for children of any kind", () => {
    const { edges, clock } = store({ waitMs: 1000 });
    edges.observe("p", [
      span({ service: "gateway", kind: "server", id: "30" }),
      span({ service: "orders", kind: "internal", id: "31", parent: "f1" }),
    ]);
    clock.now = T + 1500;
    const out = edges.observe("p", [
      // A server span in another service, and an AI client span of another service.
      span({ service: "orders", kind: "server", id: "32", parent: "30", ms: 7 }),
      span({ service: "assistant", kind: "client", id: "33", parent: "31", ms: 9 }),
      // A child in the parent's own service: no call.
      span({ service: "gateway", kind: "internal", id: "34", parent: "30" }),
    ]);
    expect(out).toEqual([
      entry("orders", { durationMs: 7 }),
      call("gateway", "orders", { durationMs: 7 }),
      call("orders", "assistant", { durationMs: 9 }),
    ]);
    // Parents are remembered for one to two waits, then forgotten.
    clock.now = T + 3500;
    edges.expire();
    expect(
      edges.observe("p", [span({ service: "mailer", kind: "internal", id: "35", parent: "30" })]),
    ).toEqual([]);
  });

  it("counts entry spans: server and consumer spans, and roots of any kind", () => {
    const { edges } = store();
    const out = edges.observe("p", [
      span({ service: "web", kind: "internal", id: "15", parent: "" }),
      span({ service: "web", kind: "internal", id: "16", parent: "15" }),
    ]);
    expect(out).toEqual([entry("web")]);
  });

  it("never pairs spans of two projects", () => {
    const { edges } = store();
    edges.observe("p", [frontendCall]);
    expect(edges.observe("q", [ordersServer])).toEqual([
      { ...entry("orders", { durationMs: 25 }), projectId: "q" },
    ]);
    expect(edges.size).toBe(2);
  });

  it("holds at most maxPending spans and counts the ones it drops", () => {
    // One project's share: half of 4.
    const { edges, counts } = store({ maxPending: 4 });
    edges.observe("p", [
      span({ service: "a", kind: "client", id: "20" }),
      span({ service: "a", kind: "client", id: "21" }),
      span({ service: "a", kind: "client", id: "22" }),
      // Its caller waits: pairing needs no room.
      span({ service: "b", kind: "server", id: "23", parent: "20" }),
    ]);
    expect(edges.size).toBe(1);
    expect(counts).toEqual({ dropped: 1, paired: 1 });
  });

  it("keeps half of its room for other projects: one flooding it with lone calls crowds out no one", () => {
    const { edges, counts } = store({ maxPending: 4 });
    const lone = (id: string) => span({ service: "noisy", kind: "client", id });
    edges.observe("noisy", ["30", "31", "32", "33", "34"].map(lone));
    expect(edges.size).toBe(2);
    expect(counts.dropped).toBe(3);
    edges.observe("quiet", [frontendCall]);
    expect(edges.observe("quiet", [ordersServer])).toContainEqual({
      ...call("frontend", "orders", { durationMs: 30 }),
      projectId: "quiet",
    });
    expect(edges.size).toBe(2);
  });

  it("remembers the latest parents when more come than it holds", () => {
    const { edges } = store({ maxPending: 2 });
    edges.observe(
      "p",
      ["40", "41", "42", "43", "44"].map((id) => span({ service: "gw", kind: "server", id })),
    );
    const child = (parent: string) =>
      edges.observe("p", [span({ service: "api", kind: "server", id: `5${parent}`, parent })]);
    // Two generations of at most two: 42, 43 and 44 are remembered, not the first ones.
    expect(child("44")).toContainEqual(call("gw", "api"));
    expect(child("43")).toContainEqual(call("gw", "api"));
    expect(child("40")).toEqual([entry("api")]);
  });

  it("keeps a retried client span waiting once", () => {
    const { edges } = store();
    edges.observe("p", [frontendCall]);
    edges.observe("p", [frontendCall]);
    expect(edges.size).toBe(1);
  });
});

describe("service_edges rows", () => {
  it("sums calls per minute, source, target and kind, with mergeable duration buckets", () => {
    const observations = [
      ...Array.from({ length: 100 }, (_, i) =>
        call("web", "orders", { durationMs: i + 1, failed: i % 10 === 0 }),
      ),
      call("web", "orders", { minute: MINUTE + 60, durationMs: 70_000 }),
      call("web", "postgresql/orders", { targetKind: "database", durationMs: 2 }),
    ];
    const rows = summarizeEdges(observations);
    expect(rows).toHaveLength(3);
    const [first, later, database] = rows;
    expect(first).toMatchObject({
      project_id: "p",
      timestamp: MINUTE,
      source_service: "web",
      target: "orders",
      target_kind: "service",
      calls: 100,
      errors: 10,
      duration_sum_ms: 5050,
      duration_min_ms: 1,
      duration_max_ms: 100,
    });
    const buckets = first?.duration_buckets as number[];
    expect(buckets).toHaveLength(HTTP_DURATION_BOUNDS_MS.length + 1);
    // ≤5, ≤10, ≤25, ≤50, ≤75, ≤100 ms
    expect(buckets.slice(0, 6)).toEqual([5, 5, 15, 25, 25, 25]);
    expect(later?.duration_buckets).toEqual([
      ...new Array(HTTP_DURATION_BOUNDS_MS.length).fill(0),
      1,
    ]);
    expect(database).toMatchObject({ target_kind: "database", calls: 1, errors: 0 });
  });
});
