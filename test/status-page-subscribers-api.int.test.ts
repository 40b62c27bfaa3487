import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  CreatedSubscriberView,
  SubscriberView,
} from "../src/contracts/status-page-subscribers.js";
import { signatureHeaders, signingKey } from "../src/webhooks/signing.js";
import { useSubscribersBench } from "./helpers/status-page-subscribers.js";

interface Hook {
  headers: IncomingMessage["headers"];
  body: string;
}

/**
 * Webhook subscribers (signed like Vigil's webhooks, retried) and the management API of a page's
 * subscribers: counts and list for members, add and remove for owners and admins.
 */
describe("status page webhook subscribers and the subscribers API", () => {
  const t = useSubscribersBench("SQLite");
  const hooks: Hook[] = [];
  let status = 200;
  let server: Server;
  let hookUrl = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const waitForHooks = async (count: number) => {
    for (let i = 0; i < 50 && hooks.length < count; i++) {
      await t.work();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(hooks.length).toBeGreaterThanOrEqual(count);
  };

  it("a webhook subscriber gets signed announcements; a failed one is retried later", async () => {
    const added = await t.owner.post(`${t.pageApi}/subscribers`, {
      kind: "webhook",
      url: hookUrl,
      componentIds: [t.apiId],
    });
    expect(added.status).toBe(201);
    const subscriber = (await added.json()) as CreatedSubscriberView;
    expect(subscriber).toMatchObject({ kind: "webhook", status: "confirmed", address: hookUrl });
    expect(subscriber.secret).toMatch(/^whsec_/);
    // The secret is shown once: the list never has it.
    const list = await (await t.owner.get(`${t.pageApi}/subscribers`)).text();
    expect(list).not.toContain(subscriber.secret);

    const opened = await t.owner.post(`/api/projects/${t.projectId}/incidents`, {
      title: "Database failover",
      severity: "critical",
      message: "Writes are failing.",
      componentIds: [t.apiId],
    });
    expect(opened.status).toBe(201);
    await waitForHooks(1);
    const [hook] = hooks;
    const body = hook?.body ?? "";
    const parsed = JSON.parse(body) as {
      event: string;
      attempt: number;
      data: { page: { slug: string; url: string }; incident: { title: string; status: string } };
    };
    expect(parsed.event).toBe("incident.created");
    expect(parsed.attempt).toBe(1);
    expect(parsed.data.page.slug).toBe("acme");
    expect(parsed.data.page.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/status\/acme$/);
    expect(parsed.data.incident).toMatchObject({ title: "Database failover", status: "active" });
    const id = String(hook?.headers["webhook-id"]);
    const timestamp = Number(hook?.headers["webhook-timestamp"]);
    const expected = signatureHeaders(
      signingKey(subscriber.secret ?? ""),
      id,
      new Date(timestamp * 1000),
      body,
    );
    expect(hook?.headers["webhook-signature"]).toBe(expected["webhook-signature"]);

    status = 500;
    const incidentId = ((await opened.json()) as { id: string }).id;
    await t.owner.post(`/api/projects/${t.projectId}/incidents/${incidentId}/updates`, {
      message: "Failing over.",
      phase: "identified",
    });
    await waitForHooks(2);
    const rows = await t.service.deps.meta.repos.statusPageNotifications.listBySubscriber(
      subscriber.id,
    );
    const failed = rows.find((r) => r.event === "incident.updated");
    expect(failed).toMatchObject({ status: "pending", attempts: 1 });
    expect(failed?.lastError).toContain("answered 500");
    expect(Date.parse(failed?.nextAttemptAt ?? "")).toBeGreaterThan(Date.now() + 20_000);
    status = 200;
  });

  it("refuses a plain http URL off this machine and a component of no page of its own, by field", async () => {
    const plain = await t.owner.post(`${t.pageApi}/subscribers`, {
      kind: "webhook",
      url: "http://example.com/hook",
    });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { errors: { field: string }[] }).errors[0]?.field).toBe("url");
    const scoped = await t.owner.post(`${t.pageApi}/subscribers`, {
      kind: "webhook",
      url: "https://example.com/hook",
      componentIds: ["spc_other"],
    });
    expect(scoped.status).toBe(400);
    expect(((await scoped.json()) as { errors: { field: string }[] }).errors[0]?.field).toBe(
      "componentIds.0",
    );
    const twice = await t.owner.post(`${t.pageApi}/subscribers`, { kind: "webhook", url: hookUrl });
    expect(twice.status).toBe(409);
  });

  it("members read counts and the list; only owners and admins add and remove", async () => {
    await t.subscribeForm([["email", "pat@example.com"]]);
    const counts = await t.viewer.get(`${t.pageApi}/subscribers/counts`);
    expect(counts.status).toBe(200);
    expect(await counts.json()).toEqual({ confirmedEmail: 0, pendingEmail: 1, webhook: 1 });
    const list = await t.viewer.get(`${t.pageApi}/subscribers?limit=10`);
    expect(list.status).toBe(200);
    const page = (await list.json()) as { data: SubscriberView[]; pagination: { total: number } };
    expect(page.pagination.total).toBe(2);
    const pat = page.data.find((s) => s.address === "pat@example.com");
    expect(pat).toMatchObject({ kind: "email", status: "pending" });

    const forbidden = await t.viewer.post(`${t.pageApi}/subscribers`, {
      kind: "webhook",
      url: "https://example.com/x",
    });
    expect(forbidden.status).toBe(403);
    expect((await t.viewer.delete(`${t.pageApi}/subscribers/${pat?.id}`)).status).toBe(403);
    expect((await t.outsider.get(`${t.pageApi}/subscribers`)).status).toBe(404);
    expect((await t.service.fetch(`${t.pageApi}/subscribers`)).status).toBe(401);

    expect((await t.owner.delete(`${t.pageApi}/subscribers/${pat?.id}`)).status).toBe(204);
    expect((await t.owner.delete(`${t.pageApi}/subscribers/${pat?.id}`)).status).toBe(404);
    const after = (await (await t.owner.get(`${t.pageApi}/subscribers/counts`)).json()) as {
      pendingEmail: number;
    };
    expect(after.pendingEmail).toBe(0);
  });
});
