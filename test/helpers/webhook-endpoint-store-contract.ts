import { expect, it } from "vitest";
import type { MetaStore } from "../../src/meta/meta-store.js";
import { at, endpoint, projectId } from "./webhook-store-fixtures.js";

/** Webhook endpoints: storage, subscribers, updates, counts and deletes. */
export function webhookEndpointContract(getStore: () => MetaStore): void {
  it("stores webhook endpoints, lists subscribers, updates, counts and deletes them", async () => {
    const { repos } = getStore();
    await repos.organizations.insert({ id: "org_hook", name: "Hook", createdAt: at(0) });
    await repos.projects.insert({ id: projectId, orgId: "org_hook", name: "h", createdAt: at(0) });
    await repos.projects.insert({
      id: "prj_hook2",
      orgId: "org_hook",
      name: "h2",
      createdAt: at(0),
    });
    const first = await repos.webhookEndpoints.insert(
      endpoint("whe_1", ["monitor.down", "error.created"]),
    );
    await repos.webhookEndpoints.insert(
      endpoint("whe_2", ["monitor.down"], { isActive: false, createdAt: at(1), updatedAt: at(1) }),
    );
    await repos.webhookEndpoints.insert(
      endpoint("whe_3", ["error.created"], { createdAt: at(2), updatedAt: at(2) }),
    );
    await repos.webhookEndpoints.insert(
      endpoint("whe_other", ["monitor.down"], { projectId: "prj_hook2" }),
    );
    await repos.webhookEndpoints.insert(
      endpoint("whe_gone", ["monitor.down"], { createdAt: at(3) }),
    );

    expect(await repos.webhookEndpoints.findById("whe_1")).toEqual(first);
    expect(await repos.webhookEndpoints.findById("whe_missing")).toBeUndefined();
    expect(
      (await repos.webhookEndpoints.findByIds(["whe_3", "whe_1", "whe_missing"]))
        .map((e) => e.id)
        .sort(),
    ).toEqual(["whe_1", "whe_3"]);
    expect(await repos.webhookEndpoints.findByIds([])).toEqual([]);
    expect((await repos.webhookEndpoints.listByProject(projectId)).map((e) => e.id)).toEqual([
      "whe_1",
      "whe_2",
      "whe_3",
      "whe_gone",
    ]);
    expect(await repos.webhookEndpoints.countByProject(projectId)).toBe(4);
    expect(await repos.webhookEndpoints.countByProject("prj_hook2")).toBe(1);
    // Enabled and subscribed to the type, in this project only.
    const subscribers = async (event: string) =>
      (await repos.webhookEndpoints.listSubscribers(projectId, event)).map((e) => e.id).sort();
    expect(await subscribers("monitor.down")).toEqual(["whe_1", "whe_gone"]);
    expect(await subscribers("error.created")).toEqual(["whe_1", "whe_3"]);
    expect(await subscribers("monitor")).toEqual([]);
    // Whole records, as the deliverer sends with them.
    expect(await repos.webhookEndpoints.listSubscribers(projectId, "error.created")).toContainEqual(
      first,
    );

    await repos.webhookEndpoints.update("whe_2", {
      url: "https://hooks.example.com/moved",
      events: ["monitor.down", "monitor.recovered"],
      isActive: true,
      updatedAt: at(9),
    });
    expect(await repos.webhookEndpoints.findById("whe_2")).toEqual(
      endpoint("whe_2", ["monitor.down", "monitor.recovered"], {
        url: "https://hooks.example.com/moved",
        createdAt: at(1),
        updatedAt: at(9),
      }),
    );
    expect(await subscribers("monitor.recovered")).toEqual(["whe_2"]);
    await repos.webhookEndpoints.update("whe_2", {
      url: "https://hooks.example.com/moved",
      events: ["monitor.down", "monitor.recovered"],
      isActive: false,
      updatedAt: at(10),
    });
    expect(await subscribers("monitor.recovered")).toEqual([]);

    expect(await repos.webhookEndpoints.delete("whe_gone")).toBe(true);
    expect(await repos.webhookEndpoints.delete("whe_gone")).toBe(false);
    expect(await repos.webhookEndpoints.countByProject(projectId)).toBe(3);
  });
}
