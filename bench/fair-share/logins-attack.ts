import { Worker } from "node:worker_threads";
import { gzipSync } from "node:zlib";
import { Agent, fetch as undiciFetch } from "undici";
import { openLoop, round } from "../harness/http-load.js";
import { log, sleep } from "../harness/run.js";
import { benchEnv, startServer } from "../harness/serve-process.js";
import { newDataDir, phase, SPRAYERS, spansBody, summary } from "./setup.js";

/**
 * `clients` loops signing in with a new email each time and a wrong password until told to
 * stop; posts the answers counted by status (0: the connection failed).
 */
export const SPRAYER = `
export const { parentPort, workerData } = require("node:worker_threads");
export const { url, clients } = workerData;
let stop = false;
let attempt = 0;
export const statuses = {};
parentPort.once("message", () => { stop = true; });
Promise.all(Array.from({ length: clients }, async () => {
  while (!stop) {
    let status = 0;
    try {
      const response = await fetch(url + "/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ email: "spray-" + attempt++ + "@example.com", password: "guess 1234" }),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {}
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
})).then(() => parentPort.postMessage(statuses));
`;

export async function loginsAttack() {
  log(`logins: ${SPRAYERS} sign-in sprayers beside another tenant's gzip ingest`);
  const env = benchEnv();
  const data = newDataDir(env);
  const server = await startServer(data.dir, env);
  // The victim is another tenant: another client address than the sprayers' 127.0.0.1.
  const victim = new Agent({ connect: { localAddress: "127.0.0.2" } });
  try {
    const body = gzipSync(spansBody("victim", 200));
    const ingest = () =>
      openLoop(4, phase(20), async () => {
        const response = await undiciFetch(`${server.url}/v1/traces`, {
          method: "POST",
          headers: {
            "x-api-key": data.apiKey,
            "content-type": "application/json",
            "content-encoding": "gzip",
          },
          body,
          dispatcher: victim,
        });
        await response.arrayBuffer();
        return response.status === 200;
      });
    const control = summary(await ingest());
    log(`  control: ${JSON.stringify(control)}`);
    // The sprayers run on a thread of their own, so their loop never delays the victim's clock.
    const sprayers = new Worker(SPRAYER, {
      eval: true,
      workerData: { url: server.url, clients: SPRAYERS },
    });
    const sprayed = new Promise<Record<string, number>>((resolve) =>
      sprayers.once("message", resolve),
    );
    await sleep(1000);
    const attack = summary(await ingest());
    sprayers.postMessage("stop");
    const sprays = await sprayed;
    await sprayers.terminate();
    log(`  attack: ${JSON.stringify(attack)}; sign-in answers by status ${JSON.stringify(sprays)}`);
    return { control, attack, p50Ratio: round(attack.p50 / control.p50, 2), sprays };
  } finally {
    await victim.close();
    await server.stop();
    data.remove();
  }
}
