import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MonitorView as Monitor } from "../src/contracts/monitors.js";
import type { Page, Problem } from "../src/contracts/pagination.js";
import { ALLOW_SETTING, PRIVATE_URLS } from "./helpers/private-targets.js";
import { OWNER, type Session } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

describe("monitor targets with the SSRF guard on", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let base: string;

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
      VIGIL_MONITORS_ENABLED: "false",
    });
    owner = await signIn(service, OWNER.email, OWNER.password);
    const projects = (await (await owner.get("/api/projects")).json()) as Page<{ id: string }>;
    base = `/api/projects/${projects.data[0]?.id ?? ""}`;
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const expectRefused = async (response: Response, field: string) => {
    const problem = (await response.json()) as Problem & { code: string };
    expect(response.status, problem.detail).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(problem.code).toBe("invalid_input");
    expect(problem.errors?.map((e) => e.field)).toEqual([field]);
    expect(problem.errors?.[0]?.message).toMatch(ALLOW_SETTING);
    expect(problem.detail).toMatch(ALLOW_SETTING);
  };

  it("refuses a monitor aimed at a private address at save time, naming the field and the setting", async () => {
    for (const url of PRIVATE_URLS) {
      const body = { name: "Private", type: "api", steps: [{ url }] };
      await expectRefused(await owner.post(`${base}/monitors`, body), "steps.0.url");
    }
    // The second step of a flow; IPv4 in another notation is the same address.
    const flow = {
      name: "Flow",
      type: "flow",
      steps: [{ url: "https://example.com/login" }, { url: "http://0x7f.1/admin" }],
    };
    await expectRefused(await owner.post(`${base}/monitors`, flow), "steps.1.url");
    const list = (await (await owner.get(`${base}/monitors`)).json()) as Page<Monitor>;
    expect(list.data).toEqual([]);
  });

  it("refuses a PATCH to a private address and keeps the monitor as it was", async () => {
    const created = await owner.post(`${base}/monitors`, {
      name: "Public",
      type: "api",
      steps: [{ url: "https://example.com/health" }],
    });
    expect(created.status).toBe(201);
    const monitor = (await created.json()) as Monitor & { steps: { url: string }[] };
    for (const url of PRIVATE_URLS) {
      const patch = await owner.patch(`${base}/monitors/${monitor.id}`, { steps: [{ url }] });
      await expectRefused(patch, "steps.0.url");
    }
    const current = (await (await owner.get(`${base}/monitors/${monitor.id}`)).json()) as {
      steps: { url: string }[];
    };
    expect(current.steps.map((s) => s.url)).toEqual(["https://example.com/health"]);
  });

  it("refuses tcp, tls and dns targets that are certainly private, naming the field", async () => {
    for (const host of [
      "127.0.0.1",
      "::1",
      "10.0.0.1",
      "169.254.169.254",
      "localhost",
      "db.internal",
    ]) {
      const tcp = { name: "Private", type: "tcp", host, port: 5432 };
      await expectRefused(await owner.post(`${base}/monitors`, tcp), "host");
      const tls = { name: "Private", type: "tls", host };
      await expectRefused(await owner.post(`${base}/monitors`, tls), "host");
    }
    for (const resolver of ["127.0.0.1", "10.0.0.1:53", "[::1]:53"]) {
      const dns = {
        name: "Private",
        type: "dns",
        domain: "example.com",
        recordType: "A",
        resolver,
      };
      await expectRefused(await owner.post(`${base}/monitors`, dns), "resolver");
    }
    // A public name is saved: what it resolves to is checked on every connection.
    const named = { name: "Public", type: "tcp", host: "db.example.com", port: 5432 };
    expect((await owner.post(`${base}/monitors`, named)).status).toBe(201);
  });

  it("saves a flow whose host is filled from an earlier step: it is checked when it runs", async () => {
    const response = await owner.post(`${base}/monitors`, {
      name: "Dynamic host",
      type: "flow",
      steps: [
        { url: "https://example.com/discover", extract: [{ name: "host", path: "$.host" }] },
        { url: "http://{{host}}/health" },
      ],
    });
    expect(response.status).toBe(201);
  });

  it("refuses a Slack channel aimed at a private address, naming the setting", async () => {
    const body = (webhookUrl: string) => ({ name: "Ops", type: "slack", settings: { webhookUrl } });
    await expectRefused(
      await owner.post(`${base}/channels`, body("http://169.254.169.254/hook")),
      "settings.webhookUrl",
    );
    const created = await owner.post(
      `${base}/channels`,
      body("https://hooks.slack.com/services/T0/B0/x"),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await expectRefused(
      await owner.patch(`${base}/channels/${id}`, {
        settings: { webhookUrl: "http://localhost:9/" },
      }),
      "settings.webhookUrl",
    );
  });
});
