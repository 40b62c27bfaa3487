import { describe, expect, it } from "vitest";
import type { StatusPageComponentView } from "../src/contracts/status-pages.js";
import { ENGINES, useStatusPagesApi } from "./helpers/status-pages-api.js";

const HOUR = 3_600_000;

/** The management API refuses what its inputs do not allow, naming the field, and documents its routes. */
describe.each(ENGINES)(
  "status page management API on %s: invalid input and the OpenAPI document",
  (engine) => {
    const t = useStatusPagesApi(engine);

    it("names the field of every invalid input", async () => {
      const { owner, monitorId, base, ok, refused, fields, newPage } = t;
      const { page } = await newPage();
      const at = `${base()}/${page.id}`;
      const pageCases: [Record<string, unknown>, string][] = [
        [{ slug: "-acme", title: "x" }, "slug"],
        [{ slug: "acme-", title: "x" }, "slug"],
        [{ slug: "ac--me", title: "x" }, "slug"],
        [{ slug: "Acme", title: "x" }, "slug"],
        [{ slug: "a".repeat(64), title: "x" }, "slug"],
        [{ slug: "", title: "x" }, "slug"],
        [{ slug: "ok-slug", title: "" }, "title"],
        [{ slug: "ok-slug", title: "t".repeat(101) }, "title"],
        [{ slug: "ok-slug", title: "x", description: "d".repeat(1001) }, "description"],
        [{ slug: "ok-slug", title: "x", logoUrl: "ftp://acme.example/logo.png" }, "logoUrl"],
        [
          { slug: "ok-slug", title: "x", links: [{ label: "x", url: "javascript:alert(1)" }] },
          "links.0.url",
        ],
        [
          {
            slug: "ok-slug",
            title: "x",
            links: [{ label: "l".repeat(51), url: "https://a.example" }],
          },
          "links.0.label",
        ],
        [
          {
            slug: "ok-slug",
            title: "x",
            links: Array.from({ length: 11 }, () => ({ label: "x", url: "https://a.example" })),
          },
          "links",
        ],
        [{ slug: "ok-slug", title: "x", timezone: "Mars/Olympus_Mons" }, "timezone"],
        [{ slug: "ok-slug", title: "x", timezone: "+01:00" }, "timezone"],
        [{ slug: "ok-slug", title: "x", colour: "red" }, "colour"],
      ];
      for (const [body, field] of pageCases)
        expect(
          fields(await refused(await owner.post(base(), body))),
          JSON.stringify(body),
        ).toContain(field);
      expect(fields(await refused(await owner.patch(at, { timezone: "Nowhere/Land" })))).toContain(
        "timezone",
      );

      expect(fields(await refused(await owner.post(`${at}/groups`, { name: "" })))).toContain(
        "name",
      );
      expect(
        fields(await refused(await owner.post(`${at}/groups`, { name: "G", position: -1 }))),
      ).toContain("position");

      const componentCases: [Record<string, unknown>, string][] = [
        [{ name: "" }, "name"],
        [{ name: "n".repeat(101) }, "name"],
        [{ name: "x", groupId: "spg_nope" }, "groupId"],
        [{ name: "x", monitorIds: [monitorId, "mon_nope"] }, "monitorIds.1"],
        [{ name: "x", alertRuleIds: ["alr_nope"] }, "alertRuleIds.0"],
        [{ name: "x", monitorIds: Array.from({ length: 21 }, (_, i) => `mon_${i}`) }, "monitorIds"],
        [
          {
            name: "x",
            monitorIds: Array.from({ length: 11 }, (_, i) => `mon_${i}`),
            alertRuleIds: Array.from({ length: 10 }, (_, i) => `alr_${i}`),
          },
          "alertRuleIds",
        ],
      ];
      for (const [body, field] of componentCases)
        expect(
          fields(await refused(await owner.post(`${at}/components`, body))),
          JSON.stringify(body),
        ).toContain(field);
      const component = await ok<StatusPageComponentView>(
        await owner.post(`${at}/components`, { name: "API" }),
        201,
      );
      expect(
        fields(await refused(await owner.patch(`${at}/components/${component.id}`, {}))),
      ).toContain("body");

      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      const windowCases: [Record<string, unknown>, string][] = [
        [
          {
            title: "",
            startsAt: iso(now + HOUR),
            endsAt: iso(now + 2 * HOUR),
            componentIds: [component.id],
          },
          "title",
        ],
        [
          {
            title: "w",
            startsAt: "tomorrow",
            endsAt: iso(now + 2 * HOUR),
            componentIds: [component.id],
          },
          "startsAt",
        ],
        [
          {
            title: "w",
            startsAt: iso(now + 2 * HOUR),
            endsAt: iso(now + HOUR),
            componentIds: [component.id],
          },
          "endsAt",
        ],
        [
          {
            title: "w",
            startsAt: iso(now + HOUR),
            endsAt: iso(now + HOUR + 7 * 24 * HOUR + 1000),
            componentIds: [component.id],
          },
          "endsAt",
        ],
        [
          {
            title: "w",
            startsAt: iso(now - 3 * HOUR),
            endsAt: iso(now - HOUR),
            componentIds: [component.id],
          },
          "endsAt",
        ],
        [
          { title: "w", startsAt: iso(now + HOUR), endsAt: iso(now + 2 * HOUR), componentIds: [] },
          "componentIds",
        ],
        [
          {
            title: "w",
            startsAt: iso(now + HOUR),
            endsAt: iso(now + 2 * HOUR),
            componentIds: [component.id, "spc_nope"],
          },
          "componentIds.1",
        ],
      ];
      for (const [body, field] of windowCases)
        expect(
          fields(await refused(await owner.post(`${at}/maintenances`, body))),
          JSON.stringify(body),
        ).toContain(field);
    });

    it("documents its routes in the OpenAPI document", async () => {
      const { service, json } = t;
      const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(
        await service.fetch("/openapi.json"),
      );
      const prefix = "/api/orgs/{orgId}/status-pages";
      const documented = Object.entries(doc.paths)
        .filter(([path]) => path.startsWith(prefix))
        .flatMap(([path, item]) =>
          Object.keys(item).map((m) => `${m} ${path.slice(prefix.length)}`),
        );
      expect(documented.sort()).toEqual(
        [
          "get ",
          "post ",
          "get /{pageId}",
          "patch /{pageId}",
          "delete /{pageId}",
          "post /{pageId}/groups",
          "patch /{pageId}/groups/{groupId}",
          "delete /{pageId}/groups/{groupId}",
          "post /{pageId}/components",
          "patch /{pageId}/components/{componentId}",
          "delete /{pageId}/components/{componentId}",
          "get /{pageId}/maintenances",
          "post /{pageId}/maintenances",
          "get /{pageId}/maintenances/{maintenanceId}",
          "patch /{pageId}/maintenances/{maintenanceId}",
          "delete /{pageId}/maintenances/{maintenanceId}",
          "get /{pageId}/subscribers",
          "get /{pageId}/subscribers/counts",
          "post /{pageId}/subscribers",
          "delete /{pageId}/subscribers/{subscriberId}",
        ].sort(),
      );
      const schemas = (doc as unknown as { components: { schemas: Record<string, unknown> } })
        .components.schemas;
      const create = JSON.stringify(
        Object.entries(schemas).find(([name]) => name === "CreateStatusPageInputInput")?.[1],
      );
      expect(create).toContain("timezone");
      expect(create).toContain("^[a-z0-9]+(?:-[a-z0-9]+)*$");
    });
  },
);
