import { expect, it } from "vitest";
import { ConflictError } from "../../src/lib/domain-errors.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import type { SavedQueryRecord } from "../../src/meta/repositories/saved-queries.js";

/** Saved TQL queries: storage, the one-name-per-project constraint, updates and deletes. */
export function savedQueryStoreContract(getStore: () => MetaStore): void {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 12, minute)).toISOString();
  const saved = (id: string, projectId: string, name: string): SavedQueryRecord => ({
    id,
    projectId,
    name,
    description: `about ${name}`,
    query: `SELECT count() FROM traces -- ${name}`,
    createdBy: null,
    createdAt: at(0),
    updatedAt: at(0),
  });

  it("stores saved queries with one name per project", async () => {
    const store = getStore();
    const { repos } = store;
    await repos.organizations.insert({ id: "org_sqr", name: "Sqr", createdAt: at(0) });
    for (const id of ["prj_sqr_a", "prj_sqr_b"])
      await repos.projects.insert({ id, orgId: "org_sqr", name: id, createdAt: at(0) });
    await repos.savedQueries.insert(saved("sqr_1", "prj_sqr_a", "Slow spans"));
    await repos.savedQueries.insert(saved("sqr_2", "prj_sqr_a", "Error logs"));
    // The same name in another project is another query.
    await repos.savedQueries.insert(saved("sqr_3", "prj_sqr_b", "Slow spans"));
    await expect(
      store.run((r) => r.savedQueries.insert(saved("sqr_4", "prj_sqr_a", "Slow spans"))),
    ).rejects.toBeInstanceOf(ConflictError);

    expect(await repos.savedQueries.findById("sqr_1")).toEqual(
      saved("sqr_1", "prj_sqr_a", "Slow spans"),
    );
    expect((await repos.savedQueries.findByName("prj_sqr_b", "Slow spans"))?.id).toBe("sqr_3");
    expect(await repos.savedQueries.findByName("prj_sqr_b", "Error logs")).toBeUndefined();
    const ids = (await repos.savedQueries.listByProject("prj_sqr_a")).map((q) => q.id).sort();
    expect(ids).toEqual(["sqr_1", "sqr_2"]);
  });

  it("updates a saved query's name, text and description, and deletes it once", async () => {
    const { repos } = getStore();
    await repos.savedQueries.update("sqr_2", {
      name: "Errors by service",
      description: "",
      query: "SELECT service_name, count() FROM logs WHERE level = 'error' GROUP BY 1",
      updatedAt: at(5),
    });
    expect(await repos.savedQueries.findById("sqr_2")).toMatchObject({
      name: "Errors by service",
      description: "",
      query: "SELECT service_name, count() FROM logs WHERE level = 'error' GROUP BY 1",
      createdAt: at(0),
      updatedAt: at(5),
    });
    expect(await repos.savedQueries.delete("sqr_2")).toBe(true);
    expect(await repos.savedQueries.delete("sqr_2")).toBe(false);
    expect(await repos.savedQueries.findById("sqr_2")).toBeUndefined();
  });
}
