import { describe, expect, it } from "vitest";
import type { SubscriberCountsView } from "../src/contracts/status-page-subscribers.js";
import { ENGINES, useSubscribersBench } from "./helpers/status-page-subscribers.js";

/**
 * Email subscribers of a status page end to end through SMTP: the no-script form, double opt-in,
 * announcements of incidents (created, update, resolved) and maintenance, component scope,
 * one-click unsubscribe, the same answer whoever subscribed, validation and rate limits, link
 * tokens kept out of the log, replaced confirmations not sent.
 */
describe.each(ENGINES)("status page email subscribers on %s", (engine) => {
  // One proxy hop is trusted, so a test may sign up from other client addresses (X-Forwarded-For).
  const t = useSubscribersBench(engine, { VIGIL_TRUST_PROXY: "1" });
  const counts = async () =>
    (await (await t.owner.get(`${t.pageApi}/subscribers/counts`)).json()) as SubscriberCountsView;
  const incidents = () => `/api/projects/${t.projectId}/incidents`;

  it("the public page has a Subscribe form that posts without script", async () => {
    const response = await t.service.fetch("/status/acme");
    const html = await response.text();
    expect(html).toContain('<form method="post" action="/status/acme/subscribe">');
    expect(html).toContain('name="email" type="email"');
    expect(html).toContain(`name="componentIds" value="${t.apiId}"`);
    expect(html).not.toContain("<script");
    expect(response.headers.get("content-security-policy")).toContain("form-action 'self'");
  });

  it("subscribe, confirm from the email, receive incident announcements, unsubscribe in one click", async () => {
    const answer = await t.subscribeForm([["email", "Alice@Example.com"]]);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("Check your inbox");
    expect(await counts()).toEqual({ confirmedEmail: 0, pendingEmail: 1, webhook: 0 });

    const confirmation = await t.mail(
      "alice@example.com",
      /^Confirm your subscription to Acme status$/,
    );
    const confirmUrl = t.link(confirmation, "/subscribe/confirm/");
    // A GET (a mail scanner) confirms nothing: it shows a button.
    const ask = await fetch(confirmUrl);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("Confirm subscription</button>");
    expect((await counts()).pendingEmail).toBe(1);
    const confirmed = await fetch(confirmUrl, { method: "POST" });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("You are subscribed");
    expect(await counts()).toEqual({ confirmedEmail: 1, pendingEmail: 0, webhook: 0 });
    // Single use: the same link again is refused like an unknown one.
    const again = await fetch(confirmUrl, { method: "POST" });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("not valid");

    const opened = await t.owner.post(incidents(), {
      title: "Checkout errors",
      severity: "high",
      message: "We are looking into failed payments.",
      componentIds: [t.apiId],
    });
    expect(opened.status).toBe(201);
    const incident = (await opened.json()) as { id: string };
    const created = await t.mail(
      "alice@example.com",
      /^\[Acme status\] Incident: Checkout errors$/,
    );
    expect(created.text).toContain("We are looking into failed payments.");
    expect(created.text).toContain("Affects: API");
    const unsubscribeUrl = t.link(created, "/unsubscribe/");
    expect(created.headers["list-unsubscribe"]).toBe(`<${unsubscribeUrl}>`);
    expect(created.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    const update = await t.owner.post(`${incidents()}/${incident.id}/updates`, {
      message: "A fix is deployed.",
      phase: "monitoring",
    });
    expect(update.status).toBe(200);
    const updated = await t.mail("alice@example.com", /^\[Acme status\] Update: Checkout errors$/);
    expect(updated.text).toContain("Monitoring: A fix is deployed.");
    expect(updated.text).not.toContain("failed payments");

    await t.owner.post(`${incidents()}/${incident.id}/updates`, {
      message: "Payments work again.",
      phase: "resolved",
    });
    const resolved = await t.mail(
      "alice@example.com",
      /^\[Acme status\] Resolved: Checkout errors$/,
    );
    expect(resolved.text).toContain("Payments work again.");

    // RFC 8058: the mail client POSTs List-Unsubscribe=One-Click to the header's URL.
    const gone = await fetch(unsubscribeUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(gone.status).toBe(200);
    expect(await gone.text()).toContain("You are unsubscribed");
    expect((await counts()).confirmedEmail).toBe(0);
    expect((await fetch(unsubscribeUrl)).status).toBe(404);

    // The links' tokens are never written to the log: it shows their routes.
    const logs = t.service.logs.join("\n");
    for (const link of [confirmUrl, unsubscribeUrl])
      expect(logs).not.toContain(link.slice(link.lastIndexOf("/") + 1));
    expect(logs).toContain('"url":"/status/:slug/subscribe/confirm/:token"');
    expect(logs).toContain('"url":"/status/:slug/unsubscribe/:token"');
  });

  it("answers the same whether or not the address subscribed, and never sends twice to a confirmed one", async () => {
    await t.subscribeForm([["email", "carol@example.com"]]);
    const mail = await t.mail("carol@example.com", /^Confirm/);
    await fetch(t.link(mail, "/subscribe/confirm/"), { method: "POST" });
    const json = (email: string) =>
      t.service.fetch("/status/acme/subscribe", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
    const known = await json("carol@example.com");
    const unknown = await json("dave@example.com");
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await known.json()).toEqual(await unknown.json());
    await t.mail("dave@example.com", /^Confirm/);
    await t.work();
    expect(t.sink.to("carol@example.com").filter((m) => /^Confirm/.test(m.subject))).toHaveLength(
      1,
    );
  });

  it("a subscriber of some components hears only of those; maintenance is announced", async () => {
    await t.subscribeForm([
      ["email", "bob@example.com"],
      ["componentIds", t.webId],
    ]);
    await fetch(t.link(await t.mail("bob@example.com", /^Confirm/), "/subscribe/confirm/"), {
      method: "POST",
    });
    const opened = await t.owner.post(incidents(), {
      title: "API slow",
      severity: "medium",
      componentIds: [t.apiId],
    });
    expect(opened.status).toBe(201);
    await t.mail("carol@example.com", /Incident: API slow/);
    const startsAt = new Date(Date.now() + 3_600_000).toISOString();
    const endsAt = new Date(Date.now() + 7_200_000).toISOString();
    const window = await t.owner.post(`${t.pageApi}/maintenances`, {
      title: "Website upgrade",
      message: "Expect short interruptions.",
      startsAt,
      endsAt,
      componentIds: [t.webId],
    });
    expect(window.status).toBe(201);
    const scheduled = await t.mail(
      "bob@example.com",
      /^\[Acme status\] Maintenance scheduled: Website upgrade$/,
    );
    expect(scheduled.text).toContain("Expect short interruptions.");
    expect(t.sink.to("bob@example.com").some((m) => /API slow/.test(m.subject))).toBe(false);
  });

  it("refuses a bad address or component by name: HTML for the form, problem+json for JSON", async () => {
    const form = await t.subscribeForm([["email", "not-an-address"]]);
    expect(form.status).toBe(400);
    expect(form.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await form.text()).toContain("Email address: must be a valid email address");
    const json = await t.service.fetch("/status/acme/subscribe", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "eve@example.com", componentIds: ["spc_nope"] }),
    });
    expect(json.status).toBe(400);
    const problem = (await json.json()) as { errors: { field: string }[] };
    expect(problem.errors.map((e) => e.field)).toEqual(["componentIds.0"]);
    expect((await t.subscribeForm([["email", "x@example.com"]])).status).toBe(200);
    const unknownPage = await t.service.fetch("/status/nope/subscribe", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=x%40example.com",
    });
    expect(unknownPage.status).toBe(404);
  });

  it("an expired or unknown confirmation link is the same 404 page", async () => {
    await t.subscribeForm([["email", "late@example.com"]]);
    const url = t.link(await t.mail("late@example.com", /^Confirm/), "/subscribe/confirm/");
    const repo = t.service.deps.meta.repos.statusPageSubscribers;
    const pending = await repo.findByAddress(t.page.page.id, "late@example.com");
    expect(pending?.status).toBe("pending");
    // Two days on, the sweep drops the request; its link then reads like any unknown one.
    const later = new Date(Date.now() + 49 * 3_600_000).toISOString();
    expect(await repo.deleteExpired(later, 100)).toBeGreaterThanOrEqual(1);
    expect(await repo.findById(pending?.id ?? "")).toBeUndefined();
    const expired = await fetch(url, { method: "POST" });
    const unknown = await fetch(url.replace(/[^/]{43}$/, "A".repeat(43)), { method: "POST" });
    expect(expired.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(await expired.text()).toBe(await unknown.text());
  });

  /** Posts the Subscribe form as the client at `from` (through the trusted proxy hop). */
  const subscribeFrom = (from: string, fields: [string, string][], slug = "acme") =>
    t.service.fetch(`/status/${slug}/subscribe`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": from,
      },
      body: new URLSearchParams(fields).toString(),
    });

  it("junk posts do not use up the page's sign-ups; an IPv6 client counts by its /64", async () => {
    // 210 invalid posts (past the page's 200 an hour), 10 from each of 21 networks.
    for (let network = 0; network < 21; network++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          subscribeFrom(`2001:db8:${network}::${i + 1}`, [["email", "not-an-address"]]),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(400));
    }
    const real = await subscribeFrom("2001:db8:100::1", [["email", "real@example.com"]]);
    expect(real.status).toBe(200);
    await t.mail("real@example.com", /^Confirm/);

    // Twenty addresses of one /64 are one client: the next post from it is refused.
    for (let i = 1; i <= 20; i++)
      expect((await subscribeFrom(`2001:db8:200::${i}`, [["email", "x"]])).status).toBe(400);
    const refused = await subscribeFrom("2001:db8:200::ffff", [["email", "late@example.org"]]);
    expect(refused.status).toBe(429);
  });

  it("limits confirmation emails per address and page: another page still emails it", async () => {
    const created = await t.owner.post(`/api/orgs/${t.orgId}/status-pages`, {
      slug: "beta",
      title: "Beta status",
    });
    expect(created.status).toBe(201);
    // Four sign-ups on Acme: past the third, Acme sends that address nothing more this hour.
    for (let i = 0; i < 4; i++)
      expect((await subscribeFrom("198.51.100.7", [["email", "both@example.com"]])).status).toBe(
        200,
      );
    const beta = await subscribeFrom("198.51.100.7", [["email", "both@example.com"]], "beta");
    expect(beta.status).toBe(200);
    await t.mail("both@example.com", /^Confirm your subscription to Beta status$/);
    // Acme sent the third's link (the first two's may have been replaced before being sent).
    await t.mail("both@example.com", /^Confirm your subscription to Acme status$/);
    const acme = t.sink.to("both@example.com").filter((m) => /to Acme status$/.test(m.subject));
    expect(acme.length).toBeLessThanOrEqual(3);
  });

  it("a confirmation replaced by a later sign-up is not sent with its dead link", async () => {
    const worker = t.service.deps.statusPages.subscribers;
    // Stopped, so both sign-ups are queued before either is sent.
    await worker.stop();
    try {
      for (let i = 0; i < 2; i++)
        expect((await subscribeFrom("198.51.100.8", [["email", "redo@example.com"]])).status).toBe(
          200,
        );
      await t.work();
    } finally {
      worker.start();
    }
    const mail = await t.mail("redo@example.com", /^Confirm/);
    const confirmUrl = t.link(mail, "/subscribe/confirm/");
    const subscriber = await t.service.deps.meta.repos.statusPageSubscribers.findByAddress(
      t.page.page.id,
      "redo@example.com",
    );
    const outbox = await t.service.deps.meta.repos.statusPageNotifications.listBySubscriber(
      subscriber?.id ?? "",
    );
    // Both are done (the first skipped, not failed); one email went, with the live link.
    expect(outbox.map((m) => [m.event, m.status])).toEqual([
      ["subscription.confirm", "sent"],
      ["subscription.confirm", "sent"],
    ]);
    expect(t.sink.to("redo@example.com").filter((m) => /^Confirm/.test(m.subject))).toHaveLength(1);
    expect((await fetch(confirmUrl, { method: "POST" })).status).toBe(200);
  });

  it("rate limits sign-ups per client address (429 with Retry-After, as a page for the form)", async () => {
    let refused: Response | undefined;
    for (let i = 0; i < 25 && !refused; i++) {
      const response = await t.subscribeForm([["email", `flood${i}@example.com`]]);
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused?.text()).toContain("Rate limit");
  });
});
