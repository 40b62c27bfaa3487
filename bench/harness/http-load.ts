/**
 * Load generators shared by the benchmarks: an open loop (constant arrival rate, latency from
 * each request's scheduled send time, so a stalled server shows up as latency rather than as
 * fewer requests: no coordinated omission), a closed loop (the sustained maximum with a few
 * connections), and an HTTP client running them in a worker thread over keep-alive connections,
 * so the client does not share the event loop of a service started in the benchmark's process.
 */
import { Agent, request as httpRequest } from "node:http";
import { parentPort, Worker, workerData } from "node:worker_threads";
import { percentile, round } from "./stats.js";

/** One request: resolves true for a good answer, false for a bad one. */
export type Send = (i: number) => Promise<boolean>;

export interface Latencies {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface OpenLoopResult extends Latencies {
  requests: number;
  errors: number;
  /** Answers per second, from the first scheduled send to the last answer. */
  achievedRate: number;
  /** Most requests in flight at once. */
  maxInFlight: number;
  /** The latencies of the requests answered as asked (200), without the errors and refusals. */
  answered: Latencies;
}

export interface ClosedLoopResult extends Latencies {
  concurrency: number;
  requests: number;
  errors: number;
  requestsPerSecond: number;
}

export { round };

export function latencies(values: Float64Array): Latencies {
  const sorted = values.slice().sort();
  return {
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

/**
 * Sends `rate` requests per second for `seconds`, each at its scheduled time whether or not
 * earlier ones have been answered; a request's latency runs from its scheduled time to its answer.
 */
export function openLoop(rate: number, seconds: number, send: Send): Promise<OpenLoopResult> {
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const taken = new Float64Array(total);
  const answered = new Uint8Array(total);
  const start = performance.now() + 5;
  let next = 0;
  let done = 0;
  let errors = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let lastAnswer = start;
  return new Promise((resolve) => {
    const fire = (i: number) => {
      const scheduled = start + i * interval;
      inFlight++;
      if (inFlight > maxInFlight) maxInFlight = inFlight;
      send(i).then(
        (ok) => finish(i, scheduled, ok),
        () => finish(i, scheduled, false),
      );
    };
    const finish = (i: number, scheduled: number, ok: boolean) => {
      lastAnswer = performance.now();
      taken[i] = lastAnswer - scheduled;
      inFlight--;
      if (ok) answered[i] = 1;
      else errors++;
      if (++done === total) {
        resolve({
          requests: total,
          errors,
          achievedRate: round(total / ((lastAnswer - start) / 1000), 1),
          maxInFlight,
          ...latencies(taken),
          answered: latencies(taken.filter((_, j) => answered[j] === 1)),
        });
      }
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) fire(next++);
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    setTimeout(tick, 5);
  });
}

/** `concurrency` clients, each sending its next request when the last is answered, for `seconds`. */
export async function closedLoop(
  concurrency: number,
  seconds: number,
  send: Send,
): Promise<ClosedLoopResult> {
  const taken: number[] = [];
  let errors = 0;
  let counter = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const i = counter++;
        const t0 = performance.now();
        const ok = await send(i).catch(() => false);
        taken.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    concurrency,
    requests: taken.length,
    errors,
    requestsPerSecond: round(taken.length / elapsed, 1),
    ...latencies(Float64Array.from(taken)),
  };
}

// ---------------------------------------------------------------------------------------------
// The HTTP client: a worker thread with its own event loop, keep-alive connections.

export interface ClientSetup {
  host: string;
  port: number;
  /** Sent with every request (e.g. x-api-key; content-type for POSTed bodies). */
  headers?: Record<string, string> | undefined;
  /** An answer whose body contains this is bad even with status 200 (OTLP: "rejected"). */
  badIfIncludes?: string | undefined;
}

/** Where a job's requests go when not to the setup's port, with other headers. */
interface Target {
  port?: number | undefined;
  headers?: Record<string, string> | undefined;
}

type ClientJob = Target &
  (
    | {
        kind: "open";
        paths: string[];
        rate: number;
        seconds: number;
        /** POSTed in turn when given; GET otherwise. */
        bodies?: Uint8Array[] | undefined;
      }
    | { kind: "closed"; paths: string[]; concurrency: number; seconds: number }
  );

/** Sizes of the answers' bodies, in bytes. */
export interface BodyBytes {
  min: number;
  mean: number;
  max: number;
}

export type ClientAnswer =
  | { kind: "open"; result: OpenLoopResult; statuses: Record<string, number>; bytes: BodyBytes }
  | {
      kind: "closed";
      result: ClosedLoopResult;
      statuses: Record<string, number>;
      bytes: BodyBytes;
    };

/** Runs the jobs the main thread posts; what the worker startClient starts calls. */
export function runClient(setup: ClientSetup = workerData as ClientSetup) {
  const port = parentPort;
  if (!port) return;
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  const marker = setup.badIfIncludes;
  /** GET `path`, or POST `body` to it (good: 200, without `badIfIncludes` in the answer). */
  const get = (
    target: Target,
    path: string,
    statuses: Record<string, number>,
    sizes: number[],
    body?: Uint8Array,
  ) =>
    new Promise<boolean>((resolve) => {
      const req = httpRequest(
        {
          agent,
          host: setup.host,
          port: target.port ?? setup.port,
          path,
          method: body === undefined ? "GET" : "POST",
          headers: target.headers ?? setup.headers ?? {},
        },
        (res) => {
          let bad = false;
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (marker !== undefined && chunk.includes(marker)) bad = true;
          });
          res.on("end", () => {
            const status = `${res.statusCode ?? 0}${bad ? ` with "${marker}"` : ""}`;
            statuses[status] = (statuses[status] ?? 0) + 1;
            sizes.push(size);
            resolve(res.statusCode === 200 && !bad);
          });
          res.on("error", () => resolve(false));
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => {
        const status = `network ${error.code ?? error.message}`;
        statuses[status] = (statuses[status] ?? 0) + 1;
        resolve(false);
      });
      req.end(body);
    });
  const bodyBytes = (sizes: number[]): BodyBytes => ({
    min: sizes.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY),
    mean: Math.round(sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length)),
    max: sizes.reduce((a, b) => Math.max(a, b), 0),
  });
  port.on("message", async (job: ClientJob) => {
    const statuses: Record<string, number> = {};
    const sizes: number[] = [];
    const bodies = job.kind === "open" ? job.bodies : undefined;
    const send: Send = (i) =>
      get(
        job,
        job.paths[i % job.paths.length] ?? "/",
        statuses,
        sizes,
        bodies?.[i % bodies.length],
      );
    const answer: ClientAnswer =
      job.kind === "open"
        ? {
            kind: "open",
            result: await openLoop(job.rate, job.seconds, send),
            statuses,
            bytes: bodyBytes(sizes),
          }
        : {
            kind: "closed",
            result: await closedLoop(job.concurrency, job.seconds, send),
            statuses,
            bytes: bodyBytes(sizes),
          };
    port.postMessage(answer);
  });
}

/** Starts the client worker: this module, loaded through tsx in a worker thread, running runClient. */
export function startClient(setup: ClientSetup) {
  const api = import.meta.resolve("tsx/esm/api");
  const self = import.meta.url;
  const worker = new Worker(
    `import(${JSON.stringify(api)})
      .then((m) => m.tsImport(${JSON.stringify(self)}, ${JSON.stringify(self)}))
      .then((client) => client.runClient())`,
    { eval: true, workerData: setup },
  );
  const ask = (job: ClientJob) =>
    new Promise<ClientAnswer>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      worker.once("error", onError);
      worker.once("message", (answer: ClientAnswer) => {
        worker.off("error", onError);
        resolve(answer);
      });
      worker.postMessage(job);
    });
  return {
    /** Open loop at `rate`/s over `paths` in turn; `bodies` are POSTed in turn when given. */
    async open(
      paths: string[],
      rate: number,
      seconds: number,
      bodies?: Uint8Array[],
      target: Target = {},
    ) {
      const answer = await ask({ kind: "open", paths, rate, seconds, bodies, ...target });
      if (answer.kind !== "open") throw new Error("client answered the wrong job");
      return answer;
    },
    /** Closed loop of `concurrency` connections over `paths` in turn. */
    async closed(paths: string[], concurrency: number, seconds: number, target: Target = {}) {
      const answer = await ask({ kind: "closed", paths, concurrency, seconds, ...target });
      if (answer.kind !== "closed") throw new Error("client answered the wrong job");
      return answer;
    },
    stop: () => worker.terminate(),
  };
}

export type HttpClient = ReturnType<typeof startClient>;
