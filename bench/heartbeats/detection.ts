import { join } from "node:path";
import SQLite from "better-sqlite3";
import { sleep } from "../harness/run.js";
import { round, spread } from "../harness/stats.js";

// What the server recorded, read from its store (SQLite, WAL: read beside the running server).

/**
 * Every heartbeat's wait starts now, as a resume sets it (a period and the grace from now): the
 * schedule's first pings then come within the first period, however long creating them took.
 */
export function startWaits(dataDir: string, periodMs: number, graceMs: number): number {
  const db = new SQLite(join(dataDir, "meta.sqlite"), { fileMustExist: true, timeout: 10_000 });
  try {
    const deadline = new Date(Date.now() + periodMs + graceMs).toISOString();
    db.prepare("update monitor_heartbeats set next_deadline_at = ?").run(deadline);
    return Date.now();
  } finally {
    db.close();
  }
}

interface Missed {
  monitor_id: string;
  started_at: string;
}

/**
 * Watches the store while the stopped heartbeats' deadlines pass: when each one's first missed
 * ping appears (polled every `pollMs`), until every stopped one has one or `untilMs` (epoch) comes.
 */
export async function watchDetection(
  dataDir: string,
  stoppedIds: readonly string[],
  untilMs: number,
  pollMs = 250,
) {
  const db = new SQLite(join(dataDir, "meta.sqlite"), { readonly: true, fileMustExist: true });
  const seen = new Map<string, number>();
  const wanted = new Set(stoppedIds);
  const query = db.prepare<[], Missed>(
    "select monitor_id, min(started_at) as started_at from monitor_results where trigger = 'missed' group by monitor_id",
  );
  try {
    while (Date.now() < untilMs) {
      const now = Date.now();
      for (const row of query.all())
        if (wanted.has(row.monitor_id) && !seen.has(row.monitor_id)) seen.set(row.monitor_id, now);
      await sleep(pollMs);
    }
  } finally {
    db.close();
  }
  return seen;
}

/**
 * Per stopped heartbeat: its deadline (its last ping as the server recorded it, plus period and
 * grace), its first missed ping as recorded (started_at: when the watcher found it) and as this
 * bench saw it appear, and its outage's incident. Also every missed ping of a heartbeat that kept
 * pinging (false alarms, which must be none).
 */
export function readDetection(
  dataDir: string,
  monitors: { stoppedIds: readonly string[]; periodMs: number; graceMs: number },
  observed: ReadonlyMap<string, number>,
) {
  const db = new SQLite(join(dataDir, "meta.sqlite"), { readonly: true, fileMustExist: true });
  try {
    const stopped = new Set(monitors.stoppedIds);
    const lastPing = db.prepare<[string], { last_ping_at: string | null }>(
      "select last_ping_at from monitor_heartbeats where monitor_id = ?",
    );
    const firstMissed = db.prepare<[string, string], { started_at: string | null; n: number }>(
      "select min(started_at) as started_at, count(*) as n from monitor_results where monitor_id = ? and trigger = 'missed' and started_at > ?",
    );
    const incident = db.prepare<[string], { started_at: string; health: string }>(
      "select i.started_at, m.health from incidents i join monitors m on m.id = i.source_id where i.source = 'monitor' and i.source_id = ? and i.status = 'active'",
    );
    const recordedLate: number[] = [];
    const observedLate: number[] = [];
    let detected = 0;
    let outages = 0;
    let missedRecords = 0;
    for (const id of monitors.stoppedIds) {
      const last = lastPing.get(id)?.last_ping_at;
      if (!last) continue;
      const missed = firstMissed.get(id, last);
      missedRecords += missed?.n ?? 0;
      if (!missed?.started_at) continue;
      const deadline = Date.parse(last) + monitors.periodMs + monitors.graceMs;
      detected++;
      recordedLate.push(Date.parse(missed.started_at) - deadline);
      const seenAt = observed.get(id);
      if (seenAt !== undefined) observedLate.push(seenAt - deadline);
      if (incident.get(id)?.health === "outage") outages++;
    }
    const falseAlarms = db
      .prepare<[], { monitor_id: string }>(
        "select monitor_id from monitor_results where trigger = 'missed'",
      )
      .all()
      .filter((r) => !stopped.has(r.monitor_id)).length;
    const pings = db
      .prepare<[], { n: number }>(
        "select count(*) as n from monitor_results where trigger = 'ping'",
      )
      .get();
    return {
      stopped: monitors.stoppedIds.length,
      detected,
      outagesOpen: outages,
      missedRecords,
      falseAlarms,
      pingResults: pings?.n ?? 0,
      recordedLatenessMs: spread(recordedLate, 0),
      observedLatenessMs: spread(observedLate, 0),
      meanRecordedLatenessMs: round(
        recordedLate.reduce((a, b) => a + b, 0) / Math.max(1, recordedLate.length),
        0,
      ),
    };
  } finally {
    db.close();
  }
}
export type Detection = ReturnType<typeof readDetection>;
