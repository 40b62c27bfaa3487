import { describe, expect, it } from "vitest";
import type {
  StatusPageComponentView,
  StatusPageGroupView,
  StatusPageMaintenanceView,
} from "../src/contracts/status-pages.js";
import { ForbiddenError } from "../src/lib/domain-errors.js";
import { requireOrg } from "../src/projects/projects.js";
import { addProjectWithKey } from "./helpers/projects.js";
import type { Session } from "./helpers/roles.js";
import { ENGINES, useStatusPagesApi } from "./helpers/status-pages-api.js";

const HOUR = 3_600_000;

/** Members read, owners and admins write, other organizations see nothing, API keys reach no page. */
describe.each(ENGINES)("status page management API on %s: who may read and write", (engine) => {
  const t = useStatusPagesApi(engine);

  it("lets a viewer read but not write, and answers an outsider 404", async () => {
    const { owner, viewer, outsider, base, ok, refused, newPage, version } = t;
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    const component = await ok<StatusPageComponentView>(
      await owner.post(`${at}/components`, { name: "API" }),
      201,
    );
    const group = await ok<StatusPageGroupView>(
      await owner.post(`${at}/groups`, { name: "G" }),
      201,
    );
    const window = await ok<StatusPageMaintenanceView>(
      await owner.post(`${at}/maintenances`, {
        title: "w",
        startsAt: new Date(Date.now() + HOUR).toISOString(),
        endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
        componentIds: [component.id],
      }),
      201,
    );
    const reads = [base(), at, `${at}/maintenances`, `${at}/maintenances/${window.id}`];
    const writes: [string, (s: Session) => Promise<Response>][] = [
      ["create page", (s) => s.post(base(), { slug: "viewer-page", title: "x" })],
      ["patch page", (s) => s.patch(at, { title: "x" })],
      ["delete page", (s) => s.delete(at)],
      ["create group", (s) => s.post(`${at}/groups`, { name: "x" })],
      ["patch group", (s) => s.patch(`${at}/groups/${group.id}`, { name: "x" })],
      ["delete group", (s) => s.delete(`${at}/groups/${group.id}`)],
      ["create component", (s) => s.post(`${at}/components`, { name: "x" })],
      ["patch component", (s) => s.patch(`${at}/components/${component.id}`, { name: "x" })],
      ["delete component", (s) => s.delete(`${at}/components/${component.id}`)],
      ["patch window", (s) => s.patch(`${at}/maintenances/${window.id}`, { title: "x" })],
      ["delete window", (s) => s.delete(`${at}/maintenances/${window.id}`)],
    ];
    for (const path of reads) {
      expect((await viewer.get(path)).status, path).toBe(200);
      await refused(await outsider.get(path), 404);
    }
    for (const [label, send] of writes) {
      expect((await send(viewer)).status, label).toBe(403);
      expect((await send(outsider)).status, label).toBe(404);
    }
    // Nothing the refused writes tried happened.
    expect(await version(page.id)).toBe(4);
    await refused(await owner.get(`/api/orgs/org_nope/status-pages`), 404);
    await refused(await owner.get(`${base()}/stp_nope`), 404);
  });

  it("rejects a source of another organization exactly like one that does not exist", async () => {
    const { owner, monitorId, foreignMonitorId, base, ok, refused, fields, newPage } = t;
    const { page } = await newPage();
    const at = `${base()}/${page.id}`;
    const foreign = await refused(
      await owner.post(`${at}/components`, {
        name: "x",
        monitorIds: [monitorId, foreignMonitorId],
      }),
    );
    expect(fields(foreign)).toEqual(["monitorIds.1"]);
    expect(foreign.detail).not.toContain("Secret");
    const missing = await refused(
      await owner.post(`${at}/components`, { name: "x", monitorIds: [monitorId, "mon_missing"] }),
    );
    expect(foreign.errors?.[0]?.message.replace(foreignMonitorId, "ID")).toBe(
      missing.errors?.[0]?.message.replace("mon_missing", "ID"),
    );
    // The outsider cannot bind the owner's monitor to a page of theirs either.
    const component = await ok<StatusPageComponentView>(
      await owner.post(`${at}/components`, { name: "ok" }),
      201,
    );
    expect(
      fields(
        await refused(
          await owner.patch(`${at}/components/${component.id}`, { monitorIds: [foreignMonitorId] }),
        ),
      ),
    ).toEqual(["monitorIds.0"]);
  });

  it("is not reachable with an API key, and an API key actor cannot use an organization", async () => {
    const { service, orgId, base } = t;
    const { key } = await addProjectWithKey(service, orgId, "prj_keyed");
    const response = await service.fetch(base(), { headers: { "x-api-key": key } });
    expect(response.status).toBe(401);
    const ctx = {
      deps: service.deps.domain,
      actor: { kind: "api_key" as const, keyId: "key", projectId: "prj_keyed", permissions: [] },
    };
    await expect(requireOrg({ ctx, orgId, access: "read" })).rejects.toBeInstanceOf(ForbiddenError);
  });
});
