import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseOne, runCli, spawnCli, startServeProcess } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";

// The steps run in order on one data dir, as a user would take them.
describe("the README's first steps with `npm start` running (bin/vigil.js, default ./data)", {
  timeout: 90_000,
}, () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());
  const built = { cwd: dir.path, built: true };
  const dataDir = join(dir.path, "data");
  const serverFile = join(dataDir, "server.json");
  /** Spans in the data dir after the first test, as counted through the server. */
  let spans = "";

  it("demo and tql go through the running server with temporary keys, deleted afterwards", async () => {
    const init = await runCli(
      ["init", "--email", "you@example.com", "--password-stdin", "--json"],
      {},
      {
        ...built,
        stdin: "a long password\n",
      },
    );
    expect(init.code).toBe(0);
    const { projectId } = parseOne(init.stdout) as { projectId: string };

    const server = await startServeProcess([], {}, built);
    let stopped: number | null = null;
    try {
      const announced = JSON.parse(readFileSync(serverFile, "utf8")) as Record<string, unknown>;
      expect(announced).toMatchObject({ url: server.url, pid: server.pid });
      expect(Date.parse(String(announced.startedAt))).toBeLessThanOrEqual(Date.now());

      const demo = await runCli(["demo", "--spans", "500"], {}, built);
      expect(demo.stderr).toBe("");
      expect(demo.code).toBe(0);
      expect(demo.stdout).toContain(`Sent 500 spans`);
      expect(demo.stdout).toContain(`to ${server.url}`);

      const tql = await runCli(["tql", "SELECT count() FROM traces"], {}, built);
      expect(tql.code).toBe(0);
      expect(tql.stdout.split("\n").slice(0, 3)).toEqual(["count()", "───────", "500"]);

      const temporaryKeys = async () => {
        const listed = await runCli(["keys", "list", "--project", projectId, "--json"], {}, built);
        const keys = parseOne(listed.stdout).keys as {
          name: string;
          role: string;
          permissions: string[];
          revokedAt: string | null;
        }[];
        return keys.filter((k) => k.name === "vigil-cli (temporary)");
      };
      // Each temporary key is deleted once its command is done: nothing is left in the list.
      expect(await temporaryKeys()).toEqual([]);

      // Ctrl-C in the middle of a long demo still removes its key (an ingest key while it runs).
      const long = spawnCli(["demo", "--spans", "5000000"], {}, built);
      const exited = new Promise<number | null>((resolve) => long.once("exit", resolve));
      await expect
        .poll(
          async () => (await temporaryKeys()).map((k) => [k.role, k.permissions, k.revokedAt]),
          {
            timeout: 30_000,
            interval: 200,
          },
        )
        .toEqual([["ingest", ["ingest"], null]]);
      long.kill("SIGINT");
      expect(await exited).toBe(130);
      expect(await temporaryKeys()).toEqual([]);
      const counted = await runCli(["tql", "SELECT count() FROM traces"], {}, built);
      spans = counted.stdout.split("\n")[2] ?? "";
      expect(Number(spans)).toBeGreaterThan(500);
    } finally {
      stopped = await server.stop();
    }
    expect(stopped).toBe(0);
    expect(existsSync(serverFile)).toBe(false);
  });

  it("a server.json left by a killed server does not fool them: they open the data dir themselves", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    for (const pid of [dead, process.pid]) {
      writeFileSync(
        serverFile,
        JSON.stringify({ url: "http://127.0.0.1:9", pid, startedAt: new Date().toISOString() }),
      );
      const tql = await runCli(["tql", "SELECT count() FROM traces"], {}, built);
      expect(tql.stderr).toBe("");
      expect(tql.stdout.split("\n")[2]).toBe(spans);
    }
  });

  it("a data dir held by a process that does not answer gets a message naming the server's real URL", async () => {
    const server = await startServeProcess([], {}, built);
    let stopped: number | null = null;
    process.kill(server.pid, "SIGSTOP");
    try {
      for (const args of [
        ["tql", "SELECT 1"],
        ["demo", "--spans", "10"],
      ]) {
        const result = await runCli(args, {}, built);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`Another process holds ${dataDir}`);
        expect(result.stderr).toContain(`--url ${server.url} --key`);
      }
    } finally {
      process.kill(server.pid, "SIGCONT");
      stopped = await server.stop();
    }
    expect(stopped).toBe(0);
  });
});
