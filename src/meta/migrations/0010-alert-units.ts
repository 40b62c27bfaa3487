import { type Kysely, sql } from "kysely";

/** The error-rate preset's value before and after: a fraction (0–1), then percent (0–100). */
const FRACTION = "sum(error_count) / sum(request_count)";
const PERCENT = `100 * ${FRACTION}`;

interface RuleRow {
  id: string;
  definition: string;
  query: string;
}
interface Definition {
  preset?: { kind?: string } | null;
  condition?: { op?: string; threshold?: number };
}

/**
 * A threshold as a fraction in percent: one below 1 (or exactly 1, unless `> 1`) was a fraction;
 * one above 1 could never be reached as a fraction, so whoever typed it meant percent already.
 */
const toPercent = (op: string | undefined, threshold: number): number =>
  threshold < 1 || (threshold === 1 && op !== ">")
    ? Number((threshold * 100).toPrecision(12))
    : threshold;

async function rewrite(
  db: Kysely<unknown>,
  change: (rule: RuleRow, definition: Definition) => { query: string; threshold: number } | null,
): Promise<void> {
  const { rows } = await sql<RuleRow>`select id, definition, query from alert_rules`.execute(db);
  for (const rule of rows) {
    const definition = JSON.parse(rule.definition) as Definition;
    if (definition.preset?.kind !== "error_rate" || definition.condition === undefined) continue;
    const next = change(rule, definition);
    if (next === null) continue;
    const stored = {
      ...definition,
      condition: { ...definition.condition, threshold: next.threshold },
    };
    await sql`update alert_rules set definition = ${JSON.stringify(stored)}, query = ${next.query}
      where id = ${rule.id}`.execute(db);
  }
}

/**
 * The error-rate preset gives percent, as the Overview shows an error rate (issue 32): stored
 * error-rate rules get the percent query and their threshold in percent, so each fires as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Only a query as the preset compiled it: the threshold moves with the query, never alone.
  await rewrite(db, (rule, { condition }) =>
    rule.query.includes(PERCENT) || !rule.query.includes(FRACTION)
      ? null
      : {
          query: rule.query.replace(FRACTION, PERCENT),
          threshold: toPercent(condition?.op, condition?.threshold ?? 0),
        },
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rewrite(db, (rule, { condition }) =>
    rule.query.includes(PERCENT)
      ? {
          query: rule.query.replace(PERCENT, FRACTION),
          threshold: Number(((condition?.threshold ?? 0) / 100).toPrecision(12)),
        }
      : null,
  );
}
