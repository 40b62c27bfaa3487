import { expect } from "vitest";
import type { AlertPreviewView, AlertRuleView } from "../../src/contracts/alerts.js";
import type { Page, Problem } from "../../src/contracts/pagination.js";
import { logsBody, sendOtlp } from "./otlp.js";
import { addKey } from "./projects.js";
import { type Session, startWithRoles } from "./roles.js";

// What the alert rule API tests share (test/alert-rules-*.int.test.ts): a service with the
// roles and error logs to evaluate, a rule to start from, and the answers' shapes.

export type Rule = AlertRuleView;
export type Preview = AlertPreviewView;
export type { Page, Problem };

/**
 * The service with OWNER, VIEWER and OUTSIDER signed in, scheduled evaluation off (the stored
 * state the tests check is theirs), and error logs a minute old: 3 in api, 1 in web.
 */
export async function startAlertRulesService(dataDir: string) {
  const roles = await startWithRoles(dataDir, { VIGIL_ALERTS_ENABLED: "false" });
  const { service, projectId } = roles;
  const key = await addKey(service, projectId, { name: "ingest", role: "full" });
  const t = Date.now() - 60_000;
  const errors = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      timeMs: t + i,
      severityNumber: 17,
      body: `payment timeout ${i}`,
    }));
  await sendOtlp(service, key, "logs", logsBody("api", errors(3)));
  await sendOtlp(service, key, "logs", logsBody("web", errors(1)));
  return roles;
}

export const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

/** A rule over the error logs, by service; `overrides` replace its fields. */
export const rule = (overrides: Record<string, unknown> = {}) => ({
  name: "Errors by service",
  query:
    "SELECT service_name AS service, count() AS value FROM logs WHERE level = 'error' AND timestamp > now() - INTERVAL 1 HOUR GROUP BY service",
  condition: { op: ">", threshold: 2 },
  ...overrides,
});

/** Creates a rule through the API; throws with the problem unless it is a 201. */
export async function createRule(
  owner: Session,
  base: string,
  body: Record<string, unknown>,
): Promise<Rule> {
  const response = await owner.post(base, body);
  const created = await json<Rule & Problem>(response);
  if (response.status !== 201)
    throw new Error(`create ${response.status}: ${JSON.stringify(created)}`);
  return created;
}

/** Expects a refusal of `status` and returns its problem. */
export const refused = async (response: Response, status = 400) => {
  const problem = await json<Problem>(response);
  expect(response.status, JSON.stringify(problem)).toBe(status);
  return problem;
};

/** The fields a problem names. */
export const fields = (problem: Problem) => (problem.errors ?? []).map((e) => e.field);
