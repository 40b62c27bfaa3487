import { openLoop } from "../harness/http-load.js";
import { log, sleep } from "../harness/run.js";
import { benchEnv, startServer } from "../harness/serve-process.js";
import {
  addOrganization,
  addProject,
  HEAVY,
  newDataDir,
  phase,
  seedSpans,
  send,
  summary,
} from "./setup.js";

export async function tqlAttack() {
  log("tql: five projects of one organization flood TQL beside another organization's SELECT 1");
  const env = benchEnv();
  const data = newDataDir(env);
  const flooders = [
    data.apiKey,
    ...[2, 3, 4, 5].map((n) => addProject(data.dir, env, data.orgId, `X${n}`).key),
  ];
  const other = addProject(data.dir, env, addOrganization(data.dir, env, "victim"), "Y");
  const server = await startServer(data.dir, env);
  try {
    for (const key of flooders) await seedSpans(server.url, key);
    const tql = (key: string, query: string) =>
      send(server.url, "/v1/tql", { key, body: JSON.stringify({ query }) });
    const probe = () =>
      openLoop(2, phase(20), async () => (await tql(other.key, "SELECT 1 AS one")).status === 200);
    const control = summary(await probe());
    log(`  control: ${JSON.stringify(control)}`);
    let stop = false;
    const statuses = new Map<number, number>();
    const flood = flooders.flatMap((key) =>
      [0, 1].map(async () => {
        while (!stop) {
          const { status } = await tql(key, HEAVY).catch(() => ({ status: 0 }));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          // A refused client comes back after a second, as Retry-After says.
          if (status === 429 || status === 503) await sleep(1000);
        }
      }),
    );
    await sleep(2000);
    const attack = summary(await probe());
    stop = true;
    await Promise.all(flood);
    const floodAnswers = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
    log(
      `  attack: ${JSON.stringify(attack)}; flood answers by status ${JSON.stringify(floodAnswers)}`,
    );
    return { control, attack, floodAnswers };
  } finally {
    await server.stop();
    data.remove();
  }
}
