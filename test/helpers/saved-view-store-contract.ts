import { expect, it } from "vitest";
import { ConflictError } from "../../src/lib/domain-errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { SavedViewRecord } from "../../src/meta/repositories/saved-views.js";

/** Saved views: storage, one name per kind in a project, listing by kind, updates and deletes. */
export function savedViewStoreContract(getStore: () => MetaStore): void {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 3, 12, minute)).toISOString();
  const view = (id: string, projectId: string, kind: string, name: string): SavedViewRecord => ({
    id,
    projectId,
    kind,
    name,
    url: `/projects/${projectId}/${kind}?q=${id}`,
    createdBy: null,
    createdAt: at(0),
    updatedAt: at(0),
  });

  it("stores saved views with one name per kind in a project", async () => {
    const store = getStore();
    const { repos } = store;
    await repos.organizations.insert({ id: "org_svw", name: "Svw", createdAt: at(0) });
    for (const id of ["prj_svw_a", "prj_svw_b"])
      await repos.projects.insert({ id, orgId: "org_svw", name: id, createdAt: at(0) });
    await repos.savedViews.insert(view("svw_1", "prj_svw_a", "logs", "Errors"));
    // The same name for another explorer, or in another project, is another view.
    await repos.savedViews.insert(view("svw_2", "prj_svw_a", "traces", "Errors"));
    await repos.savedViews.insert(view("svw_3", "prj_svw_b", "logs", "Errors"));
    await repos.savedViews.insert(view("svw_4", "prj_svw_a", "logs", "Slow"));
    await expect(
      store.run((r) => r.savedViews.insert(view("svw_5", "prj_svw_a", "logs", "Errors"))),
    ).rejects.toBeInstanceOf(ConflictError);

    expect(await repos.savedViews.findById("svw_1")).toEqual(
      view("svw_1", "prj_svw_a", "logs", "Errors"),
    );
    expect((await repos.savedViews.findByName("prj_svw_a", "traces", "Errors"))?.id).toBe("svw_2");
    expect(await repos.savedViews.findByName("prj_svw_b", "traces", "Errors")).toBeUndefined();
    const ids = async (kind?: string) =>
      (await repos.savedViews.listByProject("prj_svw_a", kind)).map((v) => v.id).sort();
    expect(await ids()).toEqual(["svw_1", "svw_2", "svw_4"]);
    expect(await ids("logs")).toEqual(["svw_1", "svw_4"]);
  });

  it("renames a saved view, replaces its url, and deletes it once", async () => {
    const { repos } = getStore();
    await repos.savedViews.update("svw_4", {
      name: "Slow checkouts",
      url: "/projects/prj_svw_a/logs?service=checkout",
      updatedAt: at(5),
    });
    expect(await repos.savedViews.findById("svw_4")).toMatchObject({
      name: "Slow checkouts",
      url: "/projects/prj_svw_a/logs?service=checkout",
      createdAt: at(0),
      updatedAt: at(5),
    });
    expect(await repos.savedViews.delete("svw_4")).toBe(true);
    expect(await repos.savedViews.delete("svw_4")).toBe(false);
    expect(await repos.savedViews.findById("svw_4")).toBeUndefined();
  });
}
