import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService, type TestService } from "./helpers/test-service.js";

const OWNER = { email: "scheduling@example.com", password: "correct horse battery" };

/** Polls until `check` returns a value, or fails after `ms`. */
async function eventually<T>(check: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The management API reaches the running scheduler: no waiting for its periodic sync. */
describe("alert rules on the running scheduler", () => {
  const dir = makeTempDir();
  let service: TestService;
  let projectId: string;

  beforeAll(async () => {
    service = await startTestService(dir.path, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
    });
    const user = await service.deps.meta.repos.users.findByEmail(OWNER.email);
    const [membership] = user ? await service.deps.meta.repos.users.listMemberships(user.id) : [];
    const [project] = await service.deps.meta.repos.projects.listByOrgs([membership?.orgId ?? ""]);
    projectId = project?.id ?? "";
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  it("evaluates a rule created through the API at once, and stops scheduling it once deleted", async () => {
    const owner = await signIn(service, OWNER.email, OWNER.password);
    const scheduler = service.deps.alerts.scheduler;
    const before = scheduler?.stats().scheduled ?? 0;
    const response = await owner.post(`/api/projects/${projectId}/alert-rules`, {
      name: "Any spans",
      severity: "low",
      query: "SELECT count() AS value FROM traces",
      condition: { op: ">", threshold: 0 },
      interval: "1h",
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(scheduler?.stats().scheduled).toBe(before + 1);
    // An hourly rule evaluated within seconds: it was scheduled to run now, not at its slot.
    const evaluated = await eventually(async () => {
      const rule = await service.deps.meta.repos.alertRules.findById(id);
      return rule?.lastEvaluatedAt ? rule : undefined;
    });
    expect(evaluated).toMatchObject({ state: "ok", lastValue: 0, lastError: null });

    expect((await owner.delete(`/api/projects/${projectId}/alert-rules/${id}`)).status).toBe(204);
    expect(scheduler?.stats().scheduled).toBe(before);
  });
});
