import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import {
  StatusPageCompactData,
  type StatusPageData,
  type StatusPageSummary,
} from "../src/contracts/status-page-data.js";
import { compactStatusPageData } from "../src/status-pages/public/compact-history.js";
import { addProjectWithKey } from "./helpers/projects.js";
import {
  ENGINES,
  json,
  MIN,
  type Page,
  useStatusPageTimeline,
} from "./helpers/status-page-timeline.js";

/**
 * The public reads of a page: builds cached per data version, absolute links never shared when drawn
 * from a request's Host, and /v1/status-pages/:slug/data for the organization's keys only.
 */
describe.each(ENGINES)("status page public reads on %s: caching, links and /v1 data", (engine) => {
  const t = useStatusPageTimeline(engine);

  it("caches a build per version: served on while the next builds, rebuilt at once on a change", async () => {
    const { service, owner, orgId, pageId, data } = t;
    const etag = async () => {
      const response = await service.fetch("/status/acme.json", {
        headers: { "accept-encoding": "identity" },
      });
      await response.arrayBuffer();
      return response.headers.get("etag");
    };
    t.nowMs += 60 * MIN;
    const first = await etag();
    expect(await etag()).toBe(first);
    t.nowMs += 31_000;
    // Past 30 s the build is served once more while the next one runs in the background.
    expect(await etag()).toBe(first);
    // The background build lands shortly (polled, so a busy machine only makes it slower).
    let second = await etag();
    for (let i = 0; i < 100 && second === first; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      second = await etag();
    }
    expect(second).not.toBe(first);
    // Past 60 s nobody asked: the request waits for a fresh build.
    t.nowMs += 61_000;
    const third = await etag();
    expect(third).not.toBe(second);
    // A change of what the page shows is a new data version: a new build at once.
    const renamed = await owner.patch(`/api/orgs/${orgId}/status-pages/${pageId}`, {
      title: "Acme platform status",
    });
    expect(renamed.status).toBe(200);
    expect((await data()).page.title).toBe("Acme platform status");
  });

  it("links drawn from a request's Host are neither kept for others nor shared; a bad Host is a 400", async () => {
    const { service } = t;
    const get = (path: string, host: string) =>
      new Promise<{ status: number; cache: string; body: string }>((resolve, reject) => {
        const url = new URL(service.url);
        const req = httpRequest(
          { host: url.hostname, port: url.port, path, headers: { host } },
          (res) => {
            let body = "";
            res.on("data", (chunk: Buffer) => {
              body += chunk.toString();
            });
            res.on("end", () =>
              resolve({
                status: res.statusCode ?? 0,
                cache: String(res.headers["cache-control"]),
                body,
              }),
            );
          },
        );
        req.on("error", reject);
        req.end();
      });
    const poisoned = await get("/status/acme/feed.atom", "evil.example");
    expect(poisoned.status).toBe(200);
    expect(poisoned.cache).toMatch(/^private/);
    expect(poisoned.body).toContain("http://evil.example/status/acme");
    const honest = await get("/status/acme/feed.atom", new URL(service.url).host);
    expect(honest.body).not.toContain("evil.example");
    expect((await get("/status/acme/feed.atom", "bad host")).status).toBe(400);
    // The page itself has no absolute links: shared and cached whatever the Host.
    expect((await get("/status/acme", "evil.example")).cache).toMatch(/^public/);
  });

  it("/v1/status-pages/:slug/data answers the organization's keys only", async () => {
    const { service, key } = t;
    const own = await service.fetch("/v1/status-pages/acme/data", {
      headers: { "x-api-key": key },
    });
    expect(own.status).toBe(200);
    expect((await json<StatusPageData>(own)).services).toHaveLength(2);
    const other = await service.deps.meta.repos.organizations.insert({
      id: "org_other_tenant",
      name: "Other",
      createdAt: new Date().toISOString(),
    });
    const { key: foreign } = await addProjectWithKey(service, other.id, "prj_other_tenant");
    const refused = await service.fetch("/v1/status-pages/acme/data", {
      headers: { "x-api-key": foreign },
    });
    expect(refused.status).toBe(404);
    const list = await json<Page<StatusPageSummary>>(
      await service.fetch("/v1/status-pages", { headers: { "x-api-key": foreign } }),
    );
    expect(list.data).toEqual([]);
  });

  it("/v1 data gives the days in columns by default, as day objects with history=days", async () => {
    const { service, key } = t;
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await service.fetch(path, { headers: { "x-api-key": key, ...headers } });
      expect(response.status, path).toBe(200);
      return response.text();
    };
    const days = await get("/status/acme.json");
    expect(await get("/v1/status-pages/acme/data?history=days")).toBe(days);
    const compact = JSON.parse(await get("/v1/status-pages/acme/data")) as unknown;
    expect(StatusPageCompactData.parse(compact)).toEqual(
      compactStatusPageData(JSON.parse(days) as StatusPageData),
    );
    expect(JSON.stringify(compact).length).toBeLessThan(days.length);
    // Each form is kept per build: asked again, the same bytes (and compressed once).
    expect(await get("/v1/status-pages/acme/data", { "accept-encoding": "br" })).toBe(
      JSON.stringify(compact),
    );
    const refused = await service.fetch("/v1/status-pages/acme/data?history=weekly", {
      headers: { "x-api-key": key },
    });
    expect(refused.status).toBe(400);
  });
});
