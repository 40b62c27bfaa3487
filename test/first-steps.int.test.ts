import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CHILD_ENTRY, childBuildReady } from "./helpers/child-build.js";
import { freePort } from "./helpers/free-port.js";
import { makeTempDir } from "./helpers/temp-dir.js";

const README = fileURLToPath(new URL("../README.md", import.meta.url));
const PACKAGE = fileURLToPath(new URL("../package.json", import.meta.url));
const CLI_ENTRY = fileURLToPath(new URL("./helpers/cli-entry.ts", import.meta.url));
// tsx's ESM loader by path: the shell runs in a fresh directory with no node_modules.
const TSX = fileURLToPath(new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url));
/** What the README runs `vigil` as, and what runs the same main() from source here. */
const README_CLI = "node bin/vigil.js";
const SOURCE_ARGS = childBuildReady() ? [CHILD_ENTRY] : ["--import", TSX, CLI_ENTRY];
const SOURCE_CLI = `node ${SOURCE_ARGS.join(" ")}`;
const README_URL = "127.0.0.1:4318";
const README_RECEIVER_PORT = "8090";

/** The sh blocks of the README's "First steps" section, in order. */
function firstStepsBlocks(): string[] {
  const text = readFileSync(README, "utf8");
  const start = text.indexOf("\n## First steps\n");
  const end = text.indexOf("\n### ", start);
  expect(start).toBeGreaterThan(0);
  return [...text.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

/** The environment of a fresh shell: no Vigil setting at all. */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VIGIL_")));

/**
 * The README's First steps, run as written on a fresh directory: `vigil serve --dev` (what
 * `npm start -- --dev` runs) with no other setting, then each later block in one shell. Only
 * the ports differ (the service's and the local receiver's are free ones), and `node
 * bin/vigil.js` runs the same CLI from source.
 */
describe("the README's First steps with `vigil serve --dev`", { timeout: 120_000 }, () => {
  const dir = makeTempDir();
  const stops: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    dir.remove();
  });

  it("create a monitor on a local target and a webhook to a local http receiver, both working", async () => {
    const [start, ...steps] = firstStepsBlocks();
    expect(start?.trim()).toBe("npm start -- --dev");
    // What npm runs for it (after its prestart build): the CLI's serve, with --dev appended.
    const pkg = JSON.parse(readFileSync(PACKAGE, "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`${README_CLI} serve`);
    expect(steps.join("\n")).toContain(README_CLI);

    // `npm start -- --dev` is `node bin/vigil.js serve --dev`, in the checkout (data in ./data).
    const server = spawn(
      process.execPath,
      [...SOURCE_ARGS, "serve", "--dev", "--port", "0", "--json"],
      { cwd: dir.path, env: cleanEnv() },
    );
    let serverOut = "";
    let serverErr = "";
    server.stderr.on("data", (d: Buffer) => {
      serverErr += d.toString();
    });
    const serverExited = new Promise<number | null>((resolve) => server.once("exit", resolve));
    stops.push(async () => {
      if (server.exitCode === null) server.kill("SIGTERM");
      return serverExited;
    });
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.on("data", (d: Buffer) => {
        serverOut += d.toString();
        const line = serverOut.split("\n")[0];
        if (serverOut.includes("\n") && line) resolve((JSON.parse(line) as { url: string }).url);
      });
      void serverExited.then((code) => reject(new Error(`serve exited (${code}): ${serverErr}`)));
    });
    expect(serverErr).toContain("LOCAL DEVELOPMENT MODE");

    const receiverPort = String(await freePort());
    const script = steps
      .join("\n")
      .replaceAll(README_URL, url.replace("http://", ""))
      .replaceAll(README_RECEIVER_PORT, receiverPort)
      .replaceAll(README_CLI, SOURCE_CLI);
    const shell = spawn(
      "bash",
      // The background receiver goes when the shell does.
      ["-c", `set -euo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n${script}`],
      { cwd: dir.path, env: cleanEnv() },
    );
    let out = "";
    let err = "";
    shell.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    shell.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => shell.once("exit", resolve));
    expect(err).toBe("");
    expect(code).toBe(0);

    // What the README promises, as the user sees it in the shell.
    const init = JSON.parse(out.split("\n")[0] ?? "") as { projectId: string; apiKey: string };
    expect(init.apiKey).toMatch(/^vgl_/);
    expect(out).toContain(`"projectId":"${init.projectId}"`);
    expect(out).toMatch(/webhook: endpoint\.verify \{"type":"endpoint\.verify"\}/);
    expect(out).toMatch(/webhook: test\.ping \{/);
    expect(out).toContain('"secret":"whsec_');
    const answers = out.trim().split("\n");
    // The test ping's success and the monitor's run, each printed as `true`.
    expect(answers.filter((line) => line === "true")).toHaveLength(2);

    // And as the service recorded it: the monitor checks the local target and passes, the
    // endpoint's log holds the delivered test.ping.
    const login = await fetch(`${url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "you@example.com", password: "a long password" }),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const get = async <T>(path: string) =>
      (await (await fetch(`${url}${path}`, { headers: { cookie } })).json()) as T;
    const monitors = await get<{
      data: { id: string; health: string; steps: { url: string }[] }[];
    }>(`/api/projects/${init.projectId}/monitors`);
    expect(monitors.data).toHaveLength(1);
    const monitor = monitors.data[0];
    expect(monitor?.steps[0]?.url).toBe(`http://127.0.0.1:${receiverPort}/`);
    expect(monitor?.health).toBe("passing");
    const results = await get<{ data: { passed: boolean }[] }>(
      `/api/projects/${init.projectId}/monitors/${monitor?.id}/results`,
    );
    expect(results.data.length).toBeGreaterThanOrEqual(2);
    expect(results.data.every((r) => r.passed)).toBe(true);
    const endpoints = await get<{ data: { id: string; url: string }[] }>(
      `/webhooks/${init.projectId}/endpoints`,
    );
    expect(endpoints.data.map((e) => e.url)).toEqual([`http://127.0.0.1:${receiverPort}/hooks`]);
    const deliveries = await get<{ data: { event: string; success: boolean; status: number }[] }>(
      `/webhooks/${init.projectId}/endpoints/${endpoints.data[0]?.id}/deliveries`,
    );
    expect(deliveries.data).toContainEqual(
      expect.objectContaining({ event: "test.ping", success: true, status: 200 }),
    );
  });
});
