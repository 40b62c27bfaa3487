import { describe, expect, it } from "vitest";
import type {
  StatusPageComponentView,
  StatusPageConfigView,
  StatusPageGroupView,
  StatusPageMaintenanceView,
  StatusPageView,
} from "../src/contracts/status-pages.js";
import { ENGINES, type Page, useStatusPagesApi } from "./helpers/status-pages-api.js";

const HOUR = 3_600_000;

/** The status page management API (docs/design.md §4) over HTTP, on the real metadata store: what each write does. */
describe.each(ENGINES)(
  "status page management API on %s: pages, groups, components and windows",
  (engine) => {
    const t = useStatusPagesApi(engine);

    it("creates a page with the defaults, lists it and reads its configuration", async () => {
      const { owner, orgId, base, ok, newPage } = t;
      const created = await newPage({ slug: "acme", timezone: "europe/paris" });
      expect(created.page).toMatchObject({
        orgId,
        slug: "acme",
        title: "Acme status",
        description: "",
        logoUrl: null,
        links: [],
        timezone: "Europe/Paris",
        status: "operational",
        dataVersion: 1,
      });
      expect(created.page.id).toMatch(/^stp_/);
      expect(created).toMatchObject({ groups: [], components: [], maintenances: [] });
      const list = await ok<Page<StatusPageView>>(await owner.get(base()));
      expect(list.data.map((p) => p.slug)).toContain("acme");
      expect(await ok(await owner.get(`${base()}/${created.page.id}`))).toEqual(created);
      const utc = await newPage();
      expect(utc.page.timezone).toBe("UTC");
    });

    it("builds a page of groups, components with their sources and a window, and edits each", async () => {
      const { owner, projectId, monitorId, ruleId, base, ok, refused, newPage } = t;
      const { page } = await newPage();
      const at = `${base()}/${page.id}`;
      const core = await ok<StatusPageGroupView>(
        await owner.post(`${at}/groups`, { name: "Core" }),
        201,
      );
      expect(core).toMatchObject({ pageId: page.id, name: "Core", position: 0 });
      expect(core.id).toMatch(/^spg_/);
      const component = await ok<StatusPageComponentView>(
        await owner.post(`${at}/components`, {
          name: "Checkout",
          description: "Paying for orders",
          groupId: core.id,
          monitorIds: [monitorId, monitorId],
          alertRuleIds: [ruleId],
        }),
        201,
      );
      expect(component).toMatchObject({
        name: "Checkout",
        groupId: core.id,
        position: 0,
        status: "operational",
        monitors: [{ id: monitorId, name: "Checkout API", projectId }],
        alertRules: [{ id: ruleId, name: "Error count", projectId }],
      });
      expect(component.id).toMatch(/^spc_/);

      const patched = await ok<StatusPageComponentView>(
        await owner.patch(`${at}/components/${component.id}`, {
          name: "Payments",
          alertRuleIds: [],
        }),
      );
      expect(patched).toMatchObject({ name: "Payments", groupId: core.id, alertRules: [] });
      expect(patched.monitors.map((m) => m.id)).toEqual([monitorId]);

      const startsAt = new Date(Date.now() + HOUR).toISOString();
      const endsAt = new Date(Date.now() + 3 * HOUR).toISOString();
      const window = await ok<StatusPageMaintenanceView>(
        await owner.post(`${at}/maintenances`, {
          title: "Database upgrade",
          startsAt,
          endsAt,
          componentIds: [component.id],
        }),
        201,
      );
      expect(window).toMatchObject({
        phase: "scheduled",
        message: "",
        componentIds: [component.id],
      });
      expect(window.id).toMatch(/^mnt_/);
      expect(await ok(await owner.get(`${at}/maintenances/${window.id}`))).toEqual(window);
      const windows = await ok<Page<StatusPageMaintenanceView>>(
        await owner.get(`${at}/maintenances`),
      );
      expect(windows.data.map((w) => w.id)).toEqual([window.id]);
      // Moved to have started an hour ago: in progress from the clock at write time.
      const moved = await ok<StatusPageMaintenanceView>(
        await owner.patch(`${at}/maintenances/${window.id}`, {
          startsAt: new Date(Date.now() - HOUR).toISOString(),
          message: "Running",
        }),
      );
      expect(moved).toMatchObject({ phase: "in_progress", message: "Running", endsAt });

      const edited = await ok<StatusPageConfigView>(
        await owner.patch(at, {
          title: "Acme",
          logoUrl: "https://acme.example/logo.png",
          links: [{ label: "Home", url: "https://acme.example" }],
        }),
      );
      expect(edited.page).toMatchObject({
        title: "Acme",
        slug: page.slug,
        logoUrl: "https://acme.example/logo.png",
        links: [{ label: "Home", url: "https://acme.example" }],
      });
      expect(edited.groups).toEqual([core]);
      expect(edited.components.map((c) => c.id)).toEqual([component.id]);
      expect(edited.maintenances.map((w) => w.id)).toEqual([window.id]);

      // Deleting the group leaves its component ungrouped.
      expect((await owner.delete(`${at}/groups/${core.id}`)).status).toBe(204);
      const after = await ok<StatusPageConfigView>(await owner.get(at));
      expect(after.groups).toEqual([]);
      expect(after.components[0]?.groupId).toBeNull();

      expect((await owner.delete(`${at}/maintenances/${window.id}`)).status).toBe(204);
      expect((await owner.delete(`${at}/components/${component.id}`)).status).toBe(204);
      const emptied = await ok<StatusPageConfigView>(await owner.get(at));
      expect(emptied).toMatchObject({ components: [], maintenances: [] });
      expect((await owner.delete(at)).status).toBe(204);
      await refused(await owner.get(at), 404);
    });

    it("orders groups and components by position, then id, appending when none is given", async () => {
      const { owner, base, ok, newPage } = t;
      const { page } = await newPage();
      const at = `${base()}/${page.id}`;
      const add = async (name: string, position?: number) =>
        ok<StatusPageComponentView>(await owner.post(`${at}/components`, { name, position }), 201);
      const a = await add("a");
      const b = await add("b");
      const c = await add("c", 0);
      expect([a.position, b.position, c.position]).toEqual([0, 1, 0]);
      const ids = (await ok<StatusPageConfigView>(await owner.get(at))).components.map((x) => x.id);
      expect(ids).toEqual([...[a.id, c.id].sort(), b.id]);
      const g1 = await ok<StatusPageGroupView>(
        await owner.post(`${at}/groups`, { name: "One", position: 5 }),
        201,
      );
      const g2 = await ok<StatusPageGroupView>(
        await owner.post(`${at}/groups`, { name: "Two" }),
        201,
      );
      expect(g2.position).toBe(6);
      await ok(await owner.patch(`${at}/groups/${g2.id}`, { position: 1 }));
      const groups = (await ok<StatusPageConfigView>(await owner.get(at))).groups.map((g) => g.id);
      expect(groups).toEqual([g2.id, g1.id]);
    });

    it("refuses a taken slug or group name with 409 naming the field", async () => {
      const { owner, base, ok, refused, fields, newPage } = t;
      const first = await newPage({ slug: "taken" });
      const second = await newPage();
      expect(
        fields(await refused(await owner.post(base(), { slug: "taken", title: "x" }), 409)),
      ).toEqual(["slug"]);
      expect(
        fields(
          await refused(await owner.patch(`${base()}/${second.page.id}`, { slug: "taken" }), 409),
        ),
      ).toEqual(["slug"]);
      // Its own slug is not a conflict.
      await ok(await owner.patch(`${base()}/${first.page.id}`, { slug: "taken", title: "Same" }));
      const at = `${base()}/${first.page.id}`;
      await ok(await owner.post(`${at}/groups`, { name: "Core" }), 201);
      const other = await ok<StatusPageGroupView>(
        await owner.post(`${at}/groups`, { name: "Edge" }),
        201,
      );
      expect(
        fields(await refused(await owner.post(`${at}/groups`, { name: "Core" }), 409)),
      ).toEqual(["name"]);
      expect(
        fields(await refused(await owner.patch(`${at}/groups/${other.id}`, { name: "Core" }), 409)),
      ).toEqual(["name"]);
      // The same name on another page is fine.
      await ok(await owner.post(`${base()}/${second.page.id}/groups`, { name: "Core" }), 201);
    });

    it("bumps data_version on every write that changes what the page shows", async () => {
      const { owner, monitorId, ruleId, json, base, refused, newPage, version } = t;
      const { page } = await newPage();
      const at = `${base()}/${page.id}`;
      let expected = 1;
      const bumped = async (label: string, response: Response) => {
        expect(response.status, label).toBeLessThan(300);
        expected += 1;
        expect(await version(page.id), label).toBe(expected);
        return response;
      };
      await bumped("patch page", await owner.patch(at, { description: "All systems" }));
      const group = await json<StatusPageGroupView>(
        await bumped("add group", await owner.post(`${at}/groups`, { name: "G" })),
      );
      await bumped("patch group", await owner.patch(`${at}/groups/${group.id}`, { name: "H" }));
      const component = await json<StatusPageComponentView>(
        await bumped(
          "add component",
          await owner.post(`${at}/components`, { name: "API", monitorIds: [monitorId] }),
        ),
      );
      await bumped(
        "patch component",
        await owner.patch(`${at}/components/${component.id}`, { alertRuleIds: [ruleId] }),
      );
      const window = await json<StatusPageMaintenanceView>(
        await bumped(
          "add window",
          await owner.post(`${at}/maintenances`, {
            title: "w",
            startsAt: new Date(Date.now() + HOUR).toISOString(),
            endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
            componentIds: [component.id],
          }),
        ),
      );
      await bumped(
        "patch window",
        await owner.patch(`${at}/maintenances/${window.id}`, { title: "v" }),
      );
      await bumped("delete window", await owner.delete(`${at}/maintenances/${window.id}`));
      await bumped("delete group", await owner.delete(`${at}/groups/${group.id}`));
      await bumped("delete component", await owner.delete(`${at}/components/${component.id}`));
      // A refused write changes nothing.
      await refused(await owner.patch(at, { slug: "Bad Slug" }));
      expect(await version(page.id)).toBe(expected);
    });

    it("drops a deleted monitor from the components it fed", async () => {
      const { owner, projectId, monitorId, base, ok, newPage, monitorBody } = t;
      const doomed = await ok<{ id: string }>(
        await owner.post(`/api/projects/${projectId}/monitors`, monitorBody("Doomed")),
        201,
      );
      const { page } = await newPage();
      const at = `${base()}/${page.id}`;
      const component = await ok<StatusPageComponentView>(
        await owner.post(`${at}/components`, { name: "API", monitorIds: [doomed.id, monitorId] }),
        201,
      );
      expect(component.monitors.map((m) => m.id).sort()).toEqual([doomed.id, monitorId].sort());
      expect((await owner.delete(`/api/projects/${projectId}/monitors/${doomed.id}`)).status).toBe(
        204,
      );
      const after = await ok<StatusPageConfigView>(await owner.get(at));
      expect(after.components[0]?.monitors.map((m) => m.id)).toEqual([monitorId]);
    });

    it("holds at most 100 components a page", async () => {
      const { owner, base, refused, newPage } = t;
      const { page } = await newPage();
      const at = `${base()}/${page.id}`;
      for (let i = 0; i < 100; i++)
        expect((await owner.post(`${at}/components`, { name: `c${i}` })).status).toBe(201);
      const problem = await refused(
        await owner.post(`${at}/components`, { name: "one too many" }),
        409,
      );
      expect(problem.detail).toMatch(/at most 100 components/);
    });

    it("deletes a window left covering no component when its last component is removed", async () => {
      const { owner, base, ok, refused, newPage } = t;
      const { page } = await newPage();
      const at = `${base()}/${page.id}`;
      const add = async (name: string) =>
        ok<StatusPageComponentView>(await owner.post(`${at}/components`, { name }), 201);
      const [a, b] = [await add("a"), await add("b")];
      const window = async (componentIds: string[]) =>
        ok<StatusPageMaintenanceView>(
          await owner.post(`${at}/maintenances`, {
            title: "w",
            startsAt: new Date(Date.now() + HOUR).toISOString(),
            endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
            componentIds,
          }),
          201,
        );
      const onlyA = await window([a.id]);
      const both = await window([b.id, a.id, a.id]);
      expect(both.componentIds).toEqual([a.id, b.id].sort());
      expect((await owner.delete(`${at}/components/${a.id}`)).status).toBe(204);
      await refused(await owner.get(`${at}/maintenances/${onlyA.id}`), 404);
      const kept = await ok<StatusPageMaintenanceView>(
        await owner.get(`${at}/maintenances/${both.id}`),
      );
      expect(kept.componentIds).toEqual([b.id]);
    });
  },
);
