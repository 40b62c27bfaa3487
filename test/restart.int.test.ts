import { afterAll, describe, expect, it } from "vitest";
import { TELEMETRY_TABLE_NAMES } from "../src/telemetry/tables.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { signIn, startTestService } from "./helpers/test-service.js";

const OWNER = { email: "restart@example.com", password: "correct horse battery" };

describe("restart on the same data directory", () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it("keeps users, keys and telemetry tables with their rows", async () => {
    const first = await startTestService(dir.path, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
    });
    let key: string;
    try {
      const session = await signIn(first, OWNER.email, OWNER.password);
      const projects = (await (await session.get("/api/projects")).json()) as {
        data: { id: string }[];
      };
      const projectId = projects.data[0]?.id ?? "";
      key = (
        (await (
          await session.post(`/api/projects/${projectId}/api-keys`, { role: "full" })
        ).json()) as { key: string }
      ).key;
      await first.deps.telemetry.insert("logs", [
        {
          project_id: projectId,
          id: "log_1",
          timestamp: "2026-11-20 10:00:00.000000000",
          message: "before restart",
        },
      ]);
    } finally {
      await first.stop();
    }

    // Second start without the admin variables: nothing is re-created, everything is still there.
    const second = await startTestService(dir.path);
    try {
      const session = await signIn(second, OWNER.email, OWNER.password);
      expect((await session.get("/api/auth/me")).status).toBe(200);
      expect((await second.fetch("/v1/whoami", { headers: { "x-api-key": key } })).status).toBe(
        200,
      );
      expect(await second.deps.meta.repos.users.count()).toBe(1);
      const tables = await second.deps.telemetry.query<{ name: string }>(
        "SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name",
        { params: { db: second.deps.telemetry.database } },
      );
      expect(tables.map((t) => t.name)).toEqual([...TELEMETRY_TABLE_NAMES].sort());
      const rows = await second.deps.telemetry.query<{ message: string }>(
        "SELECT message FROM vigil.logs",
      );
      expect(rows).toEqual([{ message: "before restart" }]);
      expect(second.logs.join("")).not.toContain("No users yet");
    } finally {
      await second.stop();
    }
  });
});
