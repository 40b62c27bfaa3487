import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintAcknowledgeLink } from "../src/incidents/ack-links.js";
import { ACK_LIMITS } from "../src/server/routes/ack/ack-routes.js";
import { createIncident, type Incident, json } from "./helpers/incidents-api.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

/** One-click acknowledge links: minted with monitor.down, shown by GET, used once by POST. */
describe("acknowledge links", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let projectId: string;
  let target: Server;
  let url: string;
  let hookId: string;
  const api = (path: string) => `/api/projects/${projectId}${path}`;
  /** A link's path on the server (the URL's origin is the server's own address). */
  const pathOf = (link: string) => new URL(link).pathname;
  const post = (path: string) =>
    service.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
  const unknownPath = () => `/ack/${randomBytes(32).toString("base64url")}`;

  beforeAll(async () => {
    target = createServer((_request, response) => response.writeHead(503).end("down"));
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
    ({ service, owner, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    }));
    const hook = await owner.post(api("/channels"), {
      name: "Hook",
      type: "webhook",
      settings: {},
    });
    expect(hook.status).toBe(201);
    hookId = (await json<{ id: string }>(hook)).id;
  });
  afterAll(async () => {
    await service?.stop();
    await new Promise((resolve) => target?.close(resolve));
    dir.remove();
  });

  it("puts a link per channel in monitor.down; GET shows the incident, POST acknowledges once", async () => {
    const created = await owner.post(api("/monitors"), {
      name: "Payments",
      type: "api",
      frequency: "1h",
      alertAfter: 1,
      steps: [{ url }],
      channelIds: [hookId],
    });
    expect(created.status).toBe(201);
    const monitorId = (await json<{ id: string }>(created)).id;
    expect((await owner.post(api(`/monitors/${monitorId}/run`))).status).toBeLessThan(300);
    const incident = await service.deps.meta.repos.incidents.findOpenBySource("monitor", monitorId);
    expect(incident).toBeDefined();
    const incidentId = incident?.id ?? "";
    const [delivery] = await service.deps.meta.repos.notificationDeliveries.listByIncidents([
      incidentId,
    ]);
    const payload = delivery?.payload as { event: string; acknowledgeUrl?: string };
    expect(payload.event).toBe("monitor.down");
    expect(payload.acknowledgeUrl).toMatch(/\/ack\/[A-Za-z0-9_-]{43}$/);
    const link = pathOf(payload.acknowledgeUrl ?? "");
    expect(new URL(payload.acknowledgeUrl ?? "").origin).toBe(service.url);

    // A GET (a mail scanner's prefetch too) only shows the incident and one button.
    const page = await service.fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    const html = await page.text();
    expect(html).toContain("Payments is down");
    expect(html).toContain(`<form method="post" action="${link}">`);
    expect(html).not.toMatch(/<script/i);
    expect(
      (await service.deps.meta.repos.incidents.findById(incidentId))?.acknowledgedAt,
    ).toBeNull();

    const done = await post(link);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("You acknowledged this incident");
    const detail = await json<Incident>(await owner.get(api(`/incidents/${incidentId}`)));
    expect(detail.acknowledgedBy).toEqual({ kind: "link", id: hookId, label: "Hook (webhook)" });
    expect(detail.timeline.at(-1)).toMatchObject({
      type: "acknowledged",
      actor: { kind: "link", id: hookId },
      message: "Acknowledged from a link sent by Hook (webhook)",
    });

    // Used: the same answer as a link that never existed, for GET and POST alike.
    const unknown = unknownPath();
    const [usedGet, unknownGet] = [await service.fetch(link), await service.fetch(unknown)];
    expect([usedGet.status, unknownGet.status]).toEqual([404, 404]);
    expect(await usedGet.text()).toBe(await unknownGet.text());
    const [usedPost, unknownPost] = [await post(link), await post(unknown)];
    expect([usedPost.status, unknownPost.status]).toEqual([404, 404]);
    expect(await usedPost.text()).toBe(await unknownPost.text());
    // The token is never written to the log.
    const token = link.slice("/ack/".length);
    expect(service.logs.join("\n")).not.toContain(token);
    expect(service.logs.join("\n")).toContain('"url":"/ack/:token"');
  });

  it("answers an expired link like an unknown one; a resolved incident's link says it is resolved", async () => {
    const incident = await createIncident(owner, api("/incidents"), {
      title: "Old outage",
      severity: "low",
    });
    const mint = (hoursAgo: number) =>
      service.deps.meta.transaction((tx) =>
        mintAcknowledgeLink({
          tx,
          deps: {
            clock: { now: () => new Date(Date.now() - hoursAgo * 3_600_000) },
            appUrl: service.deps.domain.appUrl,
          },
          incidentId: incident.id,
          via: { channelId: null, label: "a test" },
        }),
      );
    const expired = pathOf((await mint(25)) ?? "");
    const fresh = pathOf((await mint(0)) ?? "");
    const [expiredGet, unknownGet] = [
      await service.fetch(expired),
      await service.fetch(unknownPath()),
    ];
    expect(expiredGet.status).toBe(404);
    expect(await expiredGet.text()).toBe(await unknownGet.text());
    expect((await post(expired)).status).toBe(404);
    expect(
      (await service.deps.meta.repos.incidents.findById(incident.id))?.acknowledgedAt,
    ).toBeNull();
    await owner.post(api(`/incidents/${incident.id}/resolve`));
    const resolved = await post(fresh);
    expect(resolved.status).toBe(200);
    expect(await resolved.text()).toContain("This incident is resolved");
    // A resolved incident gets no new link.
    expect(await mint(0)).toBeUndefined();
  });

  it("limits requests per link and per client address, with an HTML 429 and Retry-After", async () => {
    const link = unknownPath();
    for (let i = 0; i < ACK_LIMITS.perLinkPerMinute; i++)
      expect((await service.fetch(link)).status).toBe(404);
    const limited = await service.fetch(link);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain("Too many attempts");
    // Other links from the same address run into the address's limit.
    let status = 404;
    for (let i = 0; i < ACK_LIMITS.perAddressPerMinute && status !== 429; i++)
      status = (await service.fetch(unknownPath())).status;
    expect(status).toBe(429);
  });
});
