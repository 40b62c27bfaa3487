import { round } from "../harness/http-load.js";
import { log, sleep } from "../harness/run.js";
import { benchEnv, startServer } from "../harness/serve-process.js";
import { percentileOf as percentile } from "../harness/stats.js";
import { addProject, HEAVY, newDataDir, phase, RULES, seedSpans, send, session } from "./setup.js";

export interface Gaps {
  evaluations: number;
  p50: number;
  p99: number;
  max: number;
}

/** The gaps between a rule's evaluations (s), its last evaluation read every 500 ms for `ms`. */
export async function evaluationGaps(
  url: string,
  key: string,
  ruleId: string,
  ms: number,
): Promise<Gaps> {
  const until = Date.now() + ms;
  const times: number[] = [];
  while (Date.now() < until) {
    const { status, text } = await send(url, `/v1/alerts/${ruleId}`, { key });
    if (status === 200) {
      const at = (JSON.parse(text) as { lastEvaluation: { at: string } | null }).lastEvaluation?.at;
      const t = at ? Date.parse(at) : undefined;
      if (t !== undefined && t !== times.at(-1)) times.push(t);
    }
    await sleep(500);
  }
  const gaps = times.slice(1).map((t, i) => (t - (times[i] as number)) / 1000);
  // A rule not evaluated since its last: the time past its interval counts as a gap too.
  const since = (until - (times.at(-1) ?? until - ms)) / 1000;
  if (since > 30) gaps.push(since);
  return {
    evaluations: times.length,
    p50: round(percentile(gaps, 50), 1),
    p99: round(percentile(gaps, 99), 1),
    max: round(Math.max(0, ...gaps), 1),
  };
}

/** Creates `count` heavy rules in the project; stops at the first refusal and says where. */
export async function createHeavyRules(
  post: Awaited<ReturnType<typeof session>>,
  projectId: string,
  count: number,
) {
  for (let i = 0; i < count; i++) {
    const answer = await post(`/api/projects/${projectId}/alert-rules`, {
      name: `heavy ${i}`,
      query: HEAVY,
      condition: { op: ">", threshold: 0 },
      interval: "30s",
    });
    if (answer.status !== 201)
      return {
        created: i,
        refused: answer.status,
        detail: (JSON.parse(answer.text || "{}") as { detail?: string }).detail ?? answer.text,
      };
  }
  return { created: count, refused: 0, detail: "" };
}

export async function alertsAttack() {
  log(`alerts: ${RULES} heavy rules in project A beside project B's rule`);
  // The default cap, on a throwaway data dir where nothing is evaluated: the 501st is refused.
  const capEnv = benchEnv({ VIGIL_ALERTS_ENABLED: "false" });
  const capData = newDataDir(capEnv);
  const capServer = await startServer(capData.dir, capEnv);
  let cap: Awaited<ReturnType<typeof createHeavyRules>>;
  try {
    cap = await createHeavyRules(await session(capServer.url), capData.projectId, RULES);
    log(`  default cap: ${cap.created} created, then ${cap.refused}: ${cap.detail}`);
  } finally {
    await capServer.stop();
    capData.remove();
  }

  const env = benchEnv({ VIGIL_ALERTS_MAX_RULES_PER_PROJECT: String(RULES) });
  const data = newDataDir(env);
  const b = addProject(data.dir, env, data.orgId, "B");
  const server = await startServer(data.dir, env);
  try {
    const post = await session(server.url);
    await seedSpans(server.url, data.apiKey);
    const victim = await post(`/api/projects/${b.projectId}/alert-rules`, {
      name: "B's spans",
      query: "SELECT count() AS value FROM traces",
      condition: { op: ">", threshold: 1_000_000 },
      interval: "30s",
    });
    if (victim.status !== 201) throw new Error(`B's rule: ${victim.status} ${victim.text}`);
    const ruleId = (JSON.parse(victim.text) as { id: string }).id;
    const control = await evaluationGaps(server.url, b.key, ruleId, phase(95) * 1000);
    log(`  control: B's rule alone: ${JSON.stringify(control)}`);
    const started = performance.now();
    const made = await createHeavyRules(post, data.projectId, RULES);
    if (made.refused) throw new Error(`A's rule ${made.created}: ${made.refused} ${made.detail}`);
    const createSeconds = round((performance.now() - started) / 1000, 1);
    const attack = await evaluationGaps(server.url, b.key, ruleId, phase(185) * 1000);
    log(`  attack: ${RULES} rules created in ${createSeconds} s, then ${JSON.stringify(attack)}`);
    return { rules: RULES, cap, createSeconds, control, attack };
  } finally {
    await server.stop();
    data.remove();
  }
}
