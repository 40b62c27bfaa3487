import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateMetaDatabase } from "../src/meta/database.js";
import { createWebhookDeliveryRepository } from "../src/meta/repositories/webhook-deliveries.js";
import type { MetaSchema } from "../src/meta/schema.js";
import { makeTempDir } from "./helpers/temp-dir.js";

// Migration 0021: the webhook queue's indexes hold only the rows their queries ask for, and the
// queue's own statements read them (a statement that named 'pending' as a parameter would scan
// every delivery ever kept).

describe("the webhook queue's partial indexes (SQLite)", () => {
  const dir = makeTempDir();
  const path = join(dir.path, "meta.sqlite");
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  let db: Kysely<MetaSchema>;
  let raw: SQLite.Database;
  beforeAll(async () => {
    raw = new SQLite(path);
    db = new Kysely<MetaSchema>({
      dialect: new SqliteDialect({ database: raw }),
      log: (event) => {
        statements.push(event.query);
      },
    });
    await migrateMetaDatabase(db);
  });
  afterAll(async () => {
    await db.destroy();
    dir.remove();
  });

  /** The plan of the last statement the repository ran, with its own parameters. */
  const planOfLast = () => {
    const last = statements.at(-1);
    if (!last) throw new Error("no statement ran");
    const rows = raw.prepare(`EXPLAIN QUERY PLAN ${last.sql}`).all(...last.parameters) as {
      detail: string;
    }[];
    return rows.map((row) => row.detail).join("\n");
  };

  it("are partial: pending rows by due time, finished rows by finish time", () => {
    const sqlOf = (name: string) =>
      (raw.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(name) as { sql: string })
        .sql;
    expect(sqlOf("webhook_deliveries_due_idx")).toMatch(
      /\(next_attempt_at\)\s+WHERE status = 'pending'/,
    );
    expect(sqlOf("webhook_deliveries_finished_idx")).toMatch(
      /\(finished_at\)\s+WHERE finished_at IS NOT NULL/,
    );
  });

  it("serve the claim, the wake-up timer's next due time and the retention sweep", async () => {
    const repo = createWebhookDeliveryRepository(db);
    const now = new Date().toISOString();
    await repo.claimDue(now, 10, now);
    expect(planOfLast()).toMatch(/USING (COVERING )?INDEX webhook_deliveries_due_idx/);
    await repo.nextDueAt();
    expect(planOfLast()).toMatch(/USING (COVERING )?INDEX webhook_deliveries_due_idx/);
    await repo.deleteFinishedBefore(now, 10);
    expect(planOfLast()).toMatch(/USING (COVERING )?INDEX webhook_deliveries_finished_idx/);
  });
});
