import { expect, it } from "vitest";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { DashboardRecord } from "../../src/meta/repositories/dashboards.js";

/**
 * Dashboards: storage with the document, the version raised only by a save made on the current
 * one, stars per user, and what deleting a dashboard takes with it (the project's delete is
 * test/dashboards-api.int.test.ts's: no verb deletes a project).
 */
export function dashboardStoreContract(getStore: () => MetaStore): void {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 3, 12, minute)).toISOString();
  const dashboard = (id: string, projectId: string, title: string): DashboardRecord => ({
    id,
    projectId,
    title,
    description: `about ${title}`,
    tags: ["team:checkout", "prod"],
    panelCount: 1,
    document: { timeRange: "1h", panels: [{ id: "p1", title: "Ünïcode ✓", type: "text" }] },
    version: 1,
    templateId: null,
    createdBy: null,
    createdAt: at(0),
    updatedAt: at(0),
  });

  it("stores dashboards with their documents and lists a project's without them", async () => {
    const { repos } = getStore();
    await repos.organizations.insert({ id: "org_dsh", name: "Dsh", createdAt: at(0) });
    for (const id of ["prj_dsh_a", "prj_dsh_b"])
      await repos.projects.insert({ id, orgId: "org_dsh", name: id, createdAt: at(0) });
    await repos.dashboards.insert(dashboard("dsh_1", "prj_dsh_a", "Checkout"));
    await repos.dashboards.insert({
      ...dashboard("dsh_2", "prj_dsh_a", "Hosts"),
      templateId: "host-metrics",
    });
    await repos.dashboards.insert(dashboard("dsh_3", "prj_dsh_b", "Checkout"));

    expect(await repos.dashboards.findById("dsh_1")).toEqual(
      dashboard("dsh_1", "prj_dsh_a", "Checkout"),
    );
    expect(await repos.dashboards.findById("dsh_missing")).toBeUndefined();
    const listed = await repos.dashboards.listByProject("prj_dsh_a");
    expect(listed.map((d) => d.id).sort()).toEqual(["dsh_1", "dsh_2"]);
    const hosts = listed.find((d) => d.id === "dsh_2");
    expect(hosts).toMatchObject({ templateId: "host-metrics", tags: ["team:checkout", "prod"] });
    expect(hosts && "document" in hosts).toBe(false);
  });

  it("saves only on the current version, raising it by one", async () => {
    const { repos } = getStore();
    const change = {
      title: "Checkout v2",
      description: "",
      tags: [],
      panelCount: 0,
      document: { timeRange: "6h", panels: [] },
      updatedAt: at(5),
    };
    expect(await repos.dashboards.update("dsh_1", 1, change)).toBe(true);
    // Made on version 1 too: the first save moved it on, so this one changes nothing.
    expect(await repos.dashboards.update("dsh_1", 1, { ...change, title: "Lost" })).toBe(false);
    expect(await repos.dashboards.findById("dsh_1")).toMatchObject({
      ...change,
      version: 2,
      createdAt: at(0),
    });
    expect(await repos.dashboards.update("dsh_missing", 1, change)).toBe(false);
  });

  it("keeps one star per user and dashboard; deletes take stars and dashboards with them", async () => {
    const store = getStore();
    const { repos } = store;
    for (const id of ["usr_dsh_a", "usr_dsh_b"])
      await repos.users.insert({
        id,
        email: `${id}@example.com`,
        name: id,
        passwordHash: "x",
        createdAt: at(0),
      });
    await repos.dashboards.setStar("usr_dsh_a", "dsh_1", true, at(1));
    await repos.dashboards.setStar("usr_dsh_a", "dsh_1", true, at(2));
    await repos.dashboards.setStar("usr_dsh_a", "dsh_3", true, at(2));
    await repos.dashboards.setStar("usr_dsh_b", "dsh_2", true, at(2));
    expect([...(await repos.dashboards.starredIn("usr_dsh_a", "prj_dsh_a"))]).toEqual(["dsh_1"]);
    expect(await repos.dashboards.isStarred("usr_dsh_a", "dsh_1")).toBe(true);
    expect(await repos.dashboards.isStarred("usr_dsh_b", "dsh_1")).toBe(false);
    await repos.dashboards.setStar("usr_dsh_a", "dsh_1", false, at(3));
    await repos.dashboards.setStar("usr_dsh_a", "dsh_1", false, at(3));
    expect(await repos.dashboards.isStarred("usr_dsh_a", "dsh_1")).toBe(false);

    // Deleting a dashboard takes its stars; deleting a user takes theirs.
    expect(await repos.dashboards.delete("dsh_2")).toBe(true);
    expect(await repos.dashboards.delete("dsh_2")).toBe(false);
    expect(await repos.dashboards.starredIn("usr_dsh_b", "prj_dsh_a")).toEqual(new Set());
    await store.transaction(async (meta) => {
      await meta.repos.dashboards.setStar("usr_dsh_b", "dsh_1", true, at(4));
    });
    expect(await repos.dashboards.isStarred("usr_dsh_b", "dsh_1")).toBe(true);
    await repos.dashboards.delete("dsh_1");
    expect(await repos.dashboards.isStarred("usr_dsh_b", "dsh_1")).toBe(false);
  });
}
