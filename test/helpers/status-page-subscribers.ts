import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import type { StatusPageConfigView } from "../../src/contracts/status-pages.js";
import { findPostgresBin, startThrowawayPostgres, type ThrowawayPostgres } from "./postgres.js";
import { type Session, startWithRoles } from "./roles.js";
import { linksIn, type ReceivedMail, type SmtpSink, startSmtpSink } from "./smtp-sink.js";
import { makeTempDir } from "./temp-dir.js";
import type { TestService } from "./test-service.js";

// The bench of test/status-page-subscribers*.int.test.ts: a service emailing a local SMTP sink,
// an owner, a viewer and an outsider, a page with two components, and helpers for the public forms.

const postgresBin = findPostgresBin();
export const ENGINES = ["SQLite", ...(postgresBin ? ["PostgreSQL"] : [])];

export interface SubscribersBench {
  service: TestService;
  sink: SmtpSink;
  owner: Session;
  viewer: Session;
  outsider: Session;
  orgId: string;
  projectId: string;
  page: StatusPageConfigView;
  /** The page's two components: API and Website. */
  apiId: string;
  webId: string;
  /** /api/orgs/:orgId/status-pages/:pageId */
  pageApi: string;
  /** Posts the public Subscribe form (form-encoded, as a browser without script does). */
  subscribeForm(fields: [string, string][]): Promise<Response>;
  /** One pass of the subscribers' worker: announce what changed, send what is due. */
  work(): Promise<void>;
  /** The first email to `to` whose subject matches, once it arrived. */
  mail(to: string, subject: RegExp): Promise<ReceivedMail>;
  /** The link of a mail whose path contains `part`. */
  link(mail: ReceivedMail, part: string): string;
}

export function useSubscribersBench(
  engine: string,
  env: Record<string, string> = {},
): SubscribersBench {
  const dir = makeTempDir();
  let postgres: ThrowawayPostgres | undefined;
  const t = {} as SubscribersBench;
  beforeAll(async () => {
    t.sink = await startSmtpSink();
    if (engine === "PostgreSQL") postgres = await startThrowawayPostgres(postgresBin ?? "");
    const roles = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
      VIGIL_SMTP_URL: t.sink.url,
      VIGIL_SMTP_FROM: "status@vigil.test",
      ...(postgres
        ? { VIGIL_META_URL: postgres.url, VIGIL_SECRET_KEY: randomBytes(32).toString("base64") }
        : {}),
      ...env,
    });
    Object.assign(t, roles);
    const created = await t.owner.post(`/api/orgs/${t.orgId}/status-pages`, {
      slug: "acme",
      title: "Acme status",
    });
    expect(created.status).toBe(201);
    t.page = (await created.json()) as StatusPageConfigView;
    t.pageApi = `/api/orgs/${t.orgId}/status-pages/${t.page.page.id}`;
    const component = async (name: string) => {
      const response = await t.owner.post(`${t.pageApi}/components`, { name });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    t.apiId = await component("API");
    t.webId = await component("Website");
  });
  afterAll(async () => {
    await t.service?.stop();
    await t.sink?.close();
    await postgres?.stop();
    dir.remove();
  });
  t.subscribeForm = (fields) =>
    t.service.fetch("/status/acme/subscribe", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  t.work = async () => {
    await t.service.deps.statusPages.subscribers.runOnce();
  };
  t.mail = async (to, subject) => {
    const match = (m: ReceivedMail) => m.recipients.includes(to) && subject.test(m.subject);
    for (let i = 0; i < 50 && !t.sink.messages.some(match); i++) {
      await t.work();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return t.sink.waitFor(match, 5_000);
  };
  t.link = (mail, part) => {
    const found = linksIn(mail).find((l) => l.includes(part));
    if (!found) throw new Error(`no link with ${part} in ${mail.text}`);
    return found;
  };
  return t;
}
