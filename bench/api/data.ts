/**
 * The data side of `npm run bench:api`: loading the demo dataset through OTLP, waiting for the
 * engine's merges to settle, and an executor that notes the SQL a verb runs.
 */
import type { QueryOptions, TelemetryExecutor } from "../../src/telemetry/executor.js";

const log = (text: string) => process.stderr.write(`${text}\n`);
const fmt = (n: number) => n.toLocaleString("en");

export interface Captured {
  /** The executor method that ran it (rows as objects, or as arrays). */
  method: "query" | "queryCompact";
  sql: string;
  options: QueryOptions | undefined;
}

/** An executor passing everything through and noting each query's SQL and parameters. */
export function recordingExecutor(inner: TelemetryExecutor, into: Captured[]): TelemetryExecutor {
  return {
    engine: inner.engine,
    database: inner.database,
    command: (sql, options) => inner.command(sql, options),
    query<T>(sql: string, options?: QueryOptions) {
      into.push({ method: "query", sql, options });
      return inner.query<T>(sql, options);
    },
    queryCompact(sql, options) {
      into.push({ method: "queryCompact", sql, options });
      return inner.queryCompact(sql, options);
    },
    insert: (table, rows) => inner.insert(table, rows),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
}

/** Sends the demo dataset through the service's OTLP endpoint, with progress on stderr. */
export async function load(
  url: string,
  key: string,
  spans: number,
  seed: number,
  label: string,
  windowMs = 24 * 3600_000,
) {
  const { demoRequests } = await import("../../src/demo/generator.js");
  const { sendAll } = await import("../../src/demo/sender.js");
  const started = performance.now();
  let sent = 0;
  let shown = 0;
  const summary = await sendAll(
    demoRequests({ spans, batchSpans: 1000, windowMs, nowMs: Date.now(), seed }),
    {
      url,
      key,
      concurrency: 4,
      onSent: (r) => {
        if (r.signal !== "traces") return;
        sent += r.items;
        if (sent - shown >= spans / 20 || sent >= spans) {
          shown = sent;
          const s = (performance.now() - started) / 1000;
          log(
            `  ${label}: ${fmt(sent)} / ${fmt(spans)} spans, ${s.toFixed(1)} s (${fmt(Math.round(sent / s))} spans/s)`,
          );
        }
      },
    },
  );
  return { ...summary, seconds: (performance.now() - started) / 1000 };
}

/** Waits until the engine's background merges settle (the active part count stops changing). */
export async function settle(telemetry: TelemetryExecutor) {
  const partsSql = `SELECT table, count() AS parts, sum(rows) AS rows FROM system.parts
    WHERE database = {db:String} AND active AND table IN ('traces', 'logs', 'trace_data') GROUP BY table ORDER BY table`;
  const read = () =>
    telemetry.query<{ table: string; parts: string; rows: string }>(partsSql, {
      params: { db: telemetry.database },
    });
  let previous = "";
  let stable = 0;
  for (let waited = 0; waited < 120; waited += 2) {
    const parts = await read();
    const text = JSON.stringify(parts);
    stable = text === previous ? stable + 1 : 0;
    previous = text;
    if (stable >= 2) break;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  return Object.fromEntries(
    (await read()).map((p) => [p.table, { parts: Number(p.parts), rows: Number(p.rows) }]),
  );
}
