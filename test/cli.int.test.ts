import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listProjects } from "../src/projects/projects.js";
import { parseOne, runCli, spawnCli, startServeProcess } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService } from "./helpers/test-service.js";

// Each step spawns a CLI process (~2–4 s on a busy machine); some tests take several.
describe("the vigil CLI", { timeout: 90_000 }, () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("init --json prints the ids and a working key; keys create, list and revoke manage keys", async () => {
    const dataDir = join(dir.path, "init");
    const init = await runCli([
      "init",
      "--data-dir",
      dataDir,
      "--email",
      "ops@example.com",
      "--password",
      "s3cret-pass",
      "--json",
    ]);
    expect(init.code).toBe(0);
    const ids = parseOne(init.stdout);
    expect(ids).toEqual({
      orgId: expect.stringMatching(/^org_/),
      projectId: expect.stringMatching(/^prj_/),
      userId: expect.stringMatching(/^usr_/),
      apiKey: expect.stringMatching(/^vgl_[0-9A-Za-z]{32}$/),
    });

    const again = await runCli([
      "init",
      "--data-dir",
      dataDir,
      "--email",
      "x@example.com",
      "--password",
      "s3cret-pass",
      "--json",
    ]);
    expect(again.code).toBe(1);
    expect(parseOne(again.stdout)).toMatchObject({ error: { code: "conflict" } });

    const created = await runCli([
      "keys",
      "create",
      "--data-dir",
      dataDir,
      "--project",
      String(ids.projectId),
      "--role",
      "read_only",
      "--name",
      "grafana",
      "--json",
    ]);
    expect(created.code).toBe(0);
    const key = parseOne(created.stdout) as { id: string; key: string };
    expect(key.key).toMatch(/^vgl_/);

    const listed = await runCli([
      "keys",
      "list",
      "--data-dir",
      dataDir,
      "--project",
      String(ids.projectId),
      "--json",
    ]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key.key);
    expect((parseOne(listed.stdout).keys as unknown[]).length).toBe(2);

    const project = await runCli([
      "projects",
      "create",
      "--data-dir",
      dataDir,
      "--org",
      String(ids.orgId),
      "--name",
      "api",
      "--json",
    ]);
    expect(parseOne(project.stdout)).toMatchObject({
      projectId: expect.stringMatching(/^prj_/),
      name: "api",
    });

    const user = await runCli([
      "users",
      "create",
      "--data-dir",
      dataDir,
      "--email",
      "dev@example.com",
      "--password",
      "dev-pass-1",
      "--role",
      "member",
      "--json",
    ]);
    expect(parseOne(user.stdout)).toMatchObject({
      email: "dev@example.com",
      orgId: ids.orgId,
      role: "member",
    });

    const revoked = await runCli(["keys", "revoke", key.id, "--data-dir", dataDir, "--json"]);
    expect(revoked.code).toBe(0);

    const service = await startTestService(dataDir);
    try {
      const ok = await service.fetch("/v1/whoami", {
        headers: { "x-api-key": String(ids.apiKey) },
      });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { projectId: string }).projectId).toBe(ids.projectId);
      expect(
        (await service.fetch("/v1/whoami", { headers: { "x-api-key": key.key } })).status,
      ).toBe(401);
    } finally {
      await service.stop();
    }
  });

  it("exits non-zero naming the field when the configuration is invalid", async () => {
    const fromEnv = await runCli(["serve", "--data-dir", join(dir.path, "bad")], {
      VIGIL_PORT: "not-a-port",
    });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain("VIGIL_PORT");

    const typo = await runCli(["migrate", "--data-dir", join(dir.path, "bad")], {
      VIGIL_RETENTON_DAYS: "7",
    });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("did you mean VIGIL_RETENTION_DAYS");

    const file = join(dir.path, "vigil.json");
    writeFileSync(file, JSON.stringify({ telemetry: { retentionDays: 0 }, colour: "blue" }));
    const fromFile = await runCli([
      "migrate",
      "--config",
      file,
      "--data-dir",
      join(dir.path, "bad"),
      "--json",
    ]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toContain("telemetry.retentionDays");
    expect(fromFile.stderr).toContain("colour");
    expect(parseOne(fromFile.stdout)).toMatchObject({ error: { code: "invalid_config" } });
  });

  it("exits 2 on a usage error, with a JSON error object under --json", async () => {
    expect((await runCli(["frobnicate"])).code).toBe(2);
    const json = await runCli(["keys", "list", "--json"]);
    expect(json.code).toBe(2);
    expect(parseOne(json.stdout)).toMatchObject({ error: { code: "usage" } });
    const badEmail = await runCli([
      "init",
      "--data-dir",
      join(dir.path, "bad-email"),
      "--email",
      "nope",
      "--password",
      "long-enough",
      "--json",
    ]);
    expect(badEmail.code).toBe(2);
    expect(parseOne(badEmail.stdout)).toMatchObject({ error: { code: "invalid_input" } });
    expect(
      (await runCli(["init", "--data-dir", join(dir.path, "no-pass"), "--email", "a@b.co"])).code,
    ).toBe(2);
    expect((await runCli(["keys", "create", "--role", "full"])).code).toBe(2);
    expect((await runCli(["keys", "create", "--project", "p", "--role", "admin"])).code).toBe(2);
  });

  it("serve starts on an empty data dir, tells how to create the admin, and stops cleanly on SIGTERM", async () => {
    const server = await startServeProcess(["--data-dir", join(dir.path, "serve")]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.stderr()).toContain("vigil init");
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toContain("Stopped");
  });

  it("reads the password from stdin, and creates a separate organization with --new-org", async () => {
    const dataDir = join(dir.path, "stdin");
    const child = spawnCli([
      "init",
      "--data-dir",
      dataDir,
      "--email",
      "a@example.com",
      "--password-stdin",
      "--json",
    ]);
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stdin.end("from-stdin-pass\n");
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    expect(code).toBe(0);
    const ids = parseOne(stdout);

    const other = await runCli([
      "users",
      "create",
      "--data-dir",
      dataDir,
      "--email",
      "b@example.com",
      "--password",
      "b-password",
      "--new-org",
      "Tenant B",
      "--json",
    ]);
    const created = parseOne(other.stdout);
    expect(created.orgId).not.toBe(ids.orgId);
    expect(created.role).toBe("owner");

    const service = await startTestService(dataDir);
    try {
      const login = await service.fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", password: "from-stdin-pass" }),
      });
      expect(login.status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  it("init without --json prints the README's {orgId, projectId, userId, apiKey} and says the key is shown once", async () => {
    const init = await runCli(
      [
        "init",
        "--data-dir",
        join(dir.path, "human"),
        "--email",
        "you@example.com",
        "--password-stdin",
      ],
      {},
      { stdin: "a long password\n" },
    );
    expect(init.code).toBe(0);
    const object = init.stdout.slice(0, init.stdout.indexOf("\n}\n") + 2);
    expect(JSON.parse(object)).toEqual({
      orgId: expect.stringMatching(/^org_/),
      projectId: expect.stringMatching(/^prj_/),
      userId: expect.stringMatching(/^usr_/),
      apiKey: expect.stringMatching(/^vgl_[0-9A-Za-z]{32}$/),
    });
    expect(init.stdout.slice(object.length)).toContain("shown once");
  });

  it("a first start from VIGIL_ADMIN_EMAIL/PASSWORD logs a command that creates an API key, and it works while the server runs", async () => {
    const dataDir = join(dir.path, "admin-env");
    const service = await startTestService(dataDir, {
      VIGIL_ADMIN_EMAIL: "admin@example.com",
      VIGIL_ADMIN_PASSWORD: "admin-password",
    });
    try {
      const ctx = { deps: service.deps.domain, actor: { kind: "system" as const } };
      const projectId = (await listProjects({ ctx }))[0]?.id ?? "";
      expect(projectId).toMatch(/^prj_/);
      const line = service.logs
        .map((l) => JSON.parse(l) as { msg: string })
        .find((l) => l.msg.includes("keys create"));
      const command = line?.msg.match(/vigil (keys create [^(]+?) \(/)?.[1] ?? "";
      expect(command).toBe(`keys create --data-dir ${dataDir} --project ${projectId} --role full`);
      expect(line?.msg).toContain(`POST /api/projects/${projectId}/api-keys`);
      const created = await runCli([...command.split(" "), "--json"]);
      expect(created.code).toBe(0);
      const { key } = parseOne(created.stdout) as { key: string };
      const whoami = await service.fetch("/v1/whoami", { headers: { "x-api-key": key } });
      expect(whoami.status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});
