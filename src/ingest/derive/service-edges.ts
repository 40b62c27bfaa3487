import type { ServiceNodeKind } from "../../contracts/services.js";
import type { UnixTime } from "../../telemetry/unix-time.js";
import type { EdgeObservation, Row } from "../ingest-batch.js";
import { firstOf } from "../resource.js";

/**
 * What became of the spans the pairing looked at (vigil_service_edge_spans_total):
 * `paired` a caller's span met the server or consumer span it caused; `immediate` a database
 * call, recorded at once; `external` a client span nobody answered became a call to its peer;
 * `expired` a span left unpaired with nothing to record; `dropped` the store was full.
 */
export const EDGE_OUTCOMES = ["paired", "immediate", "external", "expired", "dropped"] as const;
export type EdgeOutcome = (typeof EDGE_OUTCOMES)[number];

export interface ServiceEdgesOptions {
  /** How long a span waits for its other half, from its arrival, in ms. */
  waitMs: number;
  /**
   * Spans waiting at most; one more is dropped (counted) rather than held. One project holds at
   * most half of them, so a project sending calls nobody answers cannot crowd out the others'.
   */
  maxPending: number;
  /** Counts outcomes, once per call per outcome. */
  count?: (outcome: EdgeOutcome, n: number) => void;
  /** Epoch ms; Date.now by default. */
  now?: () => number;
}

/** What the pairing keeps of a span. */
interface Half {
  service: string;
  startMs: number;
  durationMs: number;
  failed: boolean;
}

/** Where a call went when no server span answered it. */
interface Peer {
  target: string;
  kind: ServiceNodeKind;
}

/** One key's waiting spans: a caller, or the server/consumer spans whose parent it is. */
interface Waiting {
  projectId: string;
  expiresAt: number;
  client?: Half & { peer: Peer | undefined };
  children?: Half[];
}

/** Children of one parent kept waiting at most (a fan-out of one span into other services). */
const MAX_CHILDREN = 16;
/** Node names are cut to this many characters. */
const MAX_TARGET = 256;

const cut = (text: string) => (text.length > MAX_TARGET ? text.slice(0, MAX_TARGET) : text);

/** `system/name` of a database call (`db.system`, `db.namespace` or `db.name`), else undefined. */
export function databaseTarget(a: Record<string, string>): string | undefined {
  const system = firstOf(a, "db.system.name", "db.system");
  if (!system) return undefined;
  const name = firstOf(a, "db.namespace", "db.name");
  return cut(name ? `${system}/${name}` : system);
}

function hostOf(url: string): string {
  if (!url) return "";
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

/**
 * Where an unanswered call went: a message system (`messaging.system`, with its destination
 * unless temporary), else the peer the caller names (`peer.service`, `server.address`,
 * `net.peer.name`, the host of `url.full`/`http.url`); undefined when it names none.
 */
export function peerOf(a: Record<string, string>): Peer | undefined {
  const system = a["messaging.system"];
  if (system) {
    const destination =
      a["messaging.destination.temporary"] === "true"
        ? ""
        : firstOf(a, "messaging.destination.name", "messaging.destination");
    return { kind: "messaging", target: cut(destination ? `${system}/${destination}` : system) };
  }
  const peer =
    firstOf(a, "peer.service", "server.address", "net.peer.name") ||
    hostOf(firstOf(a, "url.full", "http.url"));
  return peer ? { kind: "external", target: cut(peer) } : undefined;
}

const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60;

/**
 * Finds the service map's edges in spans as they arrive, like the OpenTelemetry Collector's
 * servicegraph connector: a client or producer span waits, keyed by (project, trace, its span
 * id), for the server or consumer span whose parent it is, or that span waits for it, whichever
 * comes first. A pair is a call between their services. A database call (`db.system`) is an
 * edge at once; a client span still alone when its wait ends is a call to the peer it names.
 * A span whose parent is a span of another kind in another service is a call from that service
 * too: found in either order for server and consumer children (they wait, and other spans are
 * remembered as parents for a wait or two), parent first for children of other kinds. Every
 * entry span (server, consumer or root) is also counted as one of its service's requests.
 */
export class ServiceEdges {
  /** In arrival order, so the oldest are first to expire. */
  private readonly pending = new Map<string, Waiting>();
  /** Spans waiting per project (its share of `pending` is bounded). */
  private readonly waitingByProject = new Map<string, number>();
  private readonly now: () => number;
  private counts: Partial<Record<EdgeOutcome, number>> = {};
  /** When a span starting to wait now stops waiting. */
  private deadline = 0;
  /** Spans that are neither callers nor waiting, as parents a child may name. */
  private readonly parents: RecentSpans;

  constructor(private readonly options: ServiceEdgesOptions) {
    this.now = options.now ?? Date.now;
    this.parents = new RecentSpans(options.waitMs, options.maxPending, this.now());
  }

  /** Spans waiting for their other half. */
  get size(): number {
    return this.pending.size;
  }

  /** The edges and entry spans `traces` rows of one project give now; pairs wait for later. */
  observe(projectId: string, rows: readonly Row[]): EdgeObservation[] {
    const out: EdgeObservation[] = [];
    const now = this.now();
    this.deadline = now + this.options.waitMs;
    this.parents.age(now);
    for (const row of rows) {
      const kind = row.span_kind as string;
      const traceId = row.trace_id as string;
      const spanId = row.span_id as string;
      const parent = row.parent_span_id as string;
      const statusCode = row.http_status_code as number;
      const half: Half = {
        service: row.service_name as string,
        startMs: (row.timestamp as UnixTime).millis,
        durationMs: row.duration_ms as number,
        failed: row.status === "error" || statusCode >= 500,
      };
      const served = kind === "server" || kind === "consumer";
      if (served || parent === "") out.push(observation(projectId, half, "", half.service));
      const key = `${projectId}\u0000${traceId}\u0000`;
      if (served && parent !== "") this.child(out, projectId, key + parent, half);
      else if (parent !== "") this.crossing(out, projectId, key + parent, half);
      if (kind === "client" || kind === "producer") {
        this.caller(out, projectId, key + spanId, half, row.attributes as Record<string, string>);
        continue;
      }
      this.parentOf(out, projectId, key + spanId, half.service);
      this.parents.add(key + spanId, half.service);
    }
    this.report();
    return out;
  }

  /**
   * The spans whose wait has ended (by `nowMs`): a lone client span becomes a call to the peer
   * it names; the rest leave without an edge.
   */
  expire(nowMs = this.now()): EdgeObservation[] {
    const out: EdgeObservation[] = [];
    if (Number.isFinite(nowMs)) this.parents.age(nowMs);
    for (const [key, waiting] of this.pending) {
      if (waiting.expiresAt > nowMs) break;
      this.release(key, waiting);
      const { client } = waiting;
      if (client?.peer) {
        out.push(
          observation(
            waiting.projectId,
            client,
            client.service,
            client.peer.target,
            client.peer.kind,
          ),
        );
        this.tally("external", 1);
      } else {
        this.tally("expired", client ? 1 : (waiting.children?.length ?? 0));
      }
    }
    this.report();
    return out;
  }

  /** Ends every wait now (at shutdown): what expire gives for all of them. */
  flush(): EdgeObservation[] {
    return this.expire(Number.POSITIVE_INFINITY);
  }

  private caller(
    out: EdgeObservation[],
    projectId: string,
    key: string,
    half: Half,
    attributes: Record<string, string>,
  ): void {
    const database = databaseTarget(attributes);
    if (database !== undefined) {
      out.push(observation(projectId, half, half.service, database, "database"));
      this.tally("immediate", 1);
      return;
    }
    const waiting = this.pending.get(key);
    if (waiting?.children) {
      this.release(key, waiting);
      for (const child of waiting.children) out.push(paired(projectId, half, child));
      this.tally("paired", waiting.children.length);
      return;
    }
    // The same client span again (an export retried): it already waits.
    if (waiting) return;
    const client = { ...half, peer: peerOf(attributes) };
    this.wait(key, { projectId, expiresAt: this.deadline, client });
  }

  private child(out: EdgeObservation[], projectId: string, key: string, half: Half): void {
    const waiting = this.pending.get(key);
    if (waiting?.client) {
      this.release(key, waiting);
      out.push(paired(projectId, waiting.client, half));
      this.tally("paired", 1);
    } else if (!waiting && this.parents.get(key) !== undefined) {
      // Its parent came first and was no caller: a call if from another service.
      this.crossing(out, projectId, key, half);
    } else if (waiting?.children) {
      if (waiting.children.length < MAX_CHILDREN) waiting.children.push(half);
      else this.tally("dropped", 1);
    } else {
      this.wait(key, { projectId, expiresAt: this.deadline, children: [half] });
    }
  }

  /** A span whose parent, seen already and no caller, is in another service: a call from there. */
  private crossing(out: EdgeObservation[], projectId: string, key: string, half: Half): void {
    const parent = this.parents.get(key);
    if (parent === undefined || parent === half.service) return;
    out.push(observation(projectId, half, parent, half.service));
    this.tally("paired", 1);
  }

  /** A span of any other kind that server spans of other services wait for as their parent. */
  private parentOf(out: EdgeObservation[], projectId: string, key: string, service: string): void {
    const waiting = this.pending.get(key);
    if (!waiting?.children) return;
    this.release(key, waiting);
    let calls = 0;
    for (const child of waiting.children) {
      if (child.service === service) continue;
      out.push(observation(projectId, child, service, child.service));
      calls++;
    }
    this.tally("paired", calls);
  }

  private wait(key: string, waiting: Waiting): void {
    const held = this.waitingByProject.get(waiting.projectId) ?? 0;
    if (
      this.pending.size >= this.options.maxPending ||
      held >= Math.ceil(this.options.maxPending / 2)
    ) {
      this.tally("dropped", 1);
      return;
    }
    this.pending.set(key, waiting);
    this.waitingByProject.set(waiting.projectId, held + 1);
  }

  private release(key: string, waiting: Waiting): void {
    this.pending.delete(key);
    const held = (this.waitingByProject.get(waiting.projectId) ?? 1) - 1;
    if (held > 0) this.waitingByProject.set(waiting.projectId, held);
    else this.waitingByProject.delete(waiting.projectId);
  }

  private tally(outcome: EdgeOutcome, n: number): void {
    if (n > 0) this.counts[outcome] = (this.counts[outcome] ?? 0) + n;
  }

  private report(): void {
    const { count } = this.options;
    if (count)
      for (const outcome of EDGE_OUTCOMES)
        if (this.counts[outcome]) count(outcome, this.counts[outcome] ?? 0);
    this.counts = {};
  }
}

/** One call (or, with source '', one entry span), timed and dated by `timing`. */
function observation(
  projectId: string,
  timing: Half,
  source: string,
  target: string,
  targetKind: ServiceNodeKind = "service",
  failed = timing.failed,
): EdgeObservation {
  return {
    projectId,
    minute: minuteOf(timing.startMs),
    source,
    target,
    targetKind,
    durationMs: timing.durationMs,
    failed,
  };
}

/** A caller's span and the span it caused: the caller's time, failed when either failed. */
const paired = (projectId: string, client: Half, server: Half): EdgeObservation =>
  observation(
    projectId,
    client,
    client.service,
    server.service,
    "service",
    client.failed || server.failed,
  );

/**
 * The services of recently seen spans by key, kept one to two waits: two generations, the older
 * dropped whole when the newer is a wait old, so keeping them costs no per-span timer. A
 * generation holds `max` at most: a full one becomes the older early (under heavy traffic the
 * recent spans are kept, for less than a wait).
 */
class RecentSpans {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();

  constructor(
    private readonly keepMs: number,
    private readonly max: number,
    private startedAt: number,
  ) {}

  age(now: number): void {
    if (now - this.startedAt < this.keepMs) return;
    this.previous = now - this.startedAt < 2 * this.keepMs ? this.current : new Map();
    this.current = new Map();
    this.startedAt = now;
  }

  add(key: string, service: string): void {
    if (this.current.size >= this.max) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, service);
  }

  get(key: string): string | undefined {
    return this.current.get(key) ?? this.previous.get(key);
  }
}
