import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "./helpers/temp-dir.js";
import { startTestService, type TestService } from "./helpers/test-service.js";

const OWNER = { email: "https-owner@example.com", password: "correct horse battery" };
const PUBLIC_URL = "https://vigil.example.test";

describe("behind HTTPS at VIGIL_PUBLIC_URL", () => {
  const dir = makeTempDir();
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_PUBLIC_URL: PUBLIC_URL,
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
    });
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const login = (origin?: string) =>
    service.fetch("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", ...(origin ? { origin } : {}) },
      body: JSON.stringify(OWNER),
    });

  it("marks the session cookie Secure", async () => {
    expect((await login()).headers.get("set-cookie")).toContain("Secure");
  });

  it("accepts only the public origin for cookie writes", async () => {
    const cookie = ((await login(PUBLIC_URL)).headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const create = (origin: string) =>
      service.fetch("/api/projects", {
        method: "POST",
        headers: { cookie, origin, "content-type": "application/json" },
        body: JSON.stringify({ name: `p-${origin.length}-${Math.random()}` }),
      });
    expect((await create(service.url)).status).toBe(403);
    expect((await create("http://vigil.example.test")).status).toBe(403);
    expect((await create(PUBLIC_URL)).status).toBe(201);
    expect((await login(service.url)).status).toBe(403);
  });
});
