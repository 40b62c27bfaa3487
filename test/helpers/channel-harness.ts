import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterAll, beforeAll, expect } from "vitest";
import { createUser } from "../../src/auth/users.js";
import type { AppDeps } from "../../src/composition/app-deps.js";
import { loadSecretKey } from "../../src/config/secret-key.js";
import type { DomainEvent } from "../../src/events/event-bus.js";
import { createSecretBox } from "../../src/lib/secret-box.js";
import { createSmtpMailer } from "../../src/notifications/channels/mailer.js";
import type { ChannelService } from "../../src/notifications/channels.js";
import { type ReceivedMail, type SmtpSink, startSmtpSink } from "./smtp-sink.js";
import { makeTempDir } from "./temp-dir.js";
import { signIn, startTestService, type TestService } from "./test-service.js";

// What the notification channel tests share (notification-channels, notification-channel-tests,
// notification-dispatcher): a local Slack and SMTP server, and a service whose channels send there.

export const OWNER = { email: "channels-owner@example.com", password: "correct horse battery" };

/** A body the local Slack received. */
export interface SlackPost {
  path: string;
  body: { text: string; blocks: unknown[] };
}
/** A mail the local SMTP server (test/helpers/smtp-sink.ts) received, parsed. */
export type Mail = ReceivedMail;

export const secretToken = () => randomBytes(12).toString("hex");
export const subjectOf = (raw: string) =>
  /^Subject: (.*)$/m.exec(raw.replace(/\r\n[ \t]+/g, " "))?.[1]?.trim() ?? "";

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

export interface LocalReceivers {
  /** Each JSON body the local Slack received; paths containing "/fail" answer 500. */
  slackPosts: SlackPost[];
  slackBase: string;
  /** Each mail the local SMTP server (no TLS, no auth) received. */
  mails: Mail[];
  /** That server (test/helpers/smtp-sink.ts), for waitFor; set once beforeAll ran. */
  smtp: SmtpSink;
  smtpUrl: string;
  /** An SMTP URL nothing listens on. */
  deadSmtpUrl: string;
  agent: Agent;
}

/** Starts a local Slack and SMTP server before the file's tests and stops them after. */
export function useLocalReceivers(): LocalReceivers {
  const receivers = {
    slackPosts: [],
    slackBase: "",
    mails: [],
    smtpUrl: "",
    deadSmtpUrl: "",
    agent: new Agent(),
  } as unknown as LocalReceivers;
  let slack: Server | undefined;
  beforeAll(async () => {
    slack = createServer((request, response) => {
      let text = "";
      request.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      request.on("end", () => {
        receivers.slackPosts.push({
          path: request.url ?? "",
          body: JSON.parse(text) as SlackPost["body"],
        });
        if (request.url?.includes("/fail")) {
          response.writeHead(500, { "content-type": "text/plain" });
          response.end(`internal_error ${"x".repeat(400)}`);
        } else {
          response.writeHead(200, { "content-type": "text/plain" });
          response.end("ok");
        }
      });
    });
    receivers.slackBase = `http://127.0.0.1:${await listen(slack)}`;

    receivers.smtp = await startSmtpSink({ into: receivers.mails });
    receivers.smtpUrl = receivers.smtp.url;
    const dead = createServer();
    const deadPort = await listen(dead);
    await new Promise((resolve) => dead.close(resolve));
    receivers.deadSmtpUrl = `smtp://127.0.0.1:${deadPort}?ignoreTLS=true`;
  });
  afterAll(async () => {
    await new Promise((resolve) => (slack ? slack.close(resolve) : resolve(undefined)));
    await receivers.smtp?.close();
    await receivers.agent.close();
  });
  return receivers;
}

/** The channel service as the composition root would build it, with the test's local servers. */
export function channelServiceFor(
  deps: AppDeps,
  agent: Agent,
  smtpOverride?: string,
): ChannelService {
  return {
    secretBox: createSecretBox(loadSecretKey(deps.config)),
    channelDeps: {
      eventBus: deps.channels.channelDeps.eventBus,
      dispatcher: agent,
      mailer: createSmtpMailer({ ...deps.config.smtp, url: smtpOverride ?? deps.config.smtp.url }),
      allowPrivateTargets: deps.config.monitors.allowPrivateTargets,
      webhookEventOf: deps.channels.channelDeps.webhookEventOf,
    },
  };
}

export interface ChannelBody {
  id: string;
  name: string;
  type: string;
  settings: Record<string, unknown>;
}
export interface ProblemBody {
  status: number;
  detail: string;
  errors?: { field: string; message: string }[];
}

type Session = Awaited<ReturnType<typeof signIn>>;

/** The service and its signed-in users, set once the file's beforeAll ran. */
export interface ChannelHarness {
  service: TestService;
  /** The service's data directory (its SQLite file is there). */
  dataDir: string;
  channels: ChannelService;
  owner: Session;
  viewer: Session;
  outsider: Session;
  projectId: string;
  /** Every event the channels published on the event bus. */
  events: DomainEvent[];
  /** Secret values the tests used: no response body of the file may carry one. */
  secrets: string[];
  /** The body of a response, parsed, remembered for the secrets check. */
  read<T>(response: Response): Promise<T>;
  patch(cookie: string, path: string, body: unknown): Promise<Response>;
  /** The project's channels path. */
  base(): string;
  /** Creates a channel as the owner; throws unless 201. */
  create(body: object): Promise<ChannelBody & ProblemBody>;
}

/**
 * Starts the service with SMTP pointed at the local receiver, an owner, a viewer of the owner's
 * organization and an outsider; after the file's tests, checks that no response carried a secret.
 */
export function useChannelService(receivers: LocalReceivers): ChannelHarness {
  const dir = makeTempDir();
  const bodies: string[] = [];
  const h = { events: [], secrets: [], dataDir: dir.path } as unknown as ChannelHarness;
  h.read = async <T>(response: Response): Promise<T> => {
    const text = await response.text();
    bodies.push(text);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  h.patch = (cookie, path, body) =>
    h.service.fetch(path, {
      method: "PATCH",
      headers: { cookie, origin: h.service.url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  h.base = () => `/api/projects/${h.projectId}/channels`;
  h.create = async (body) => {
    const response = await h.owner.post(h.base(), body);
    const json = await h.read<ChannelBody & ProblemBody>(response);
    if (response.status !== 201)
      throw new Error(`create: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };

  beforeAll(async () => {
    h.service = await startTestService(dir.path, {
      VIGIL_ADMIN_EMAIL: OWNER.email,
      VIGIL_ADMIN_PASSWORD: OWNER.password,
      VIGIL_SMTP_URL: receivers.smtpUrl,
      VIGIL_SMTP_FROM: "Vigil <alerts@vigil.test>",
      // The local Slack stand-in listens on loopback.
      VIGIL_MONITORS_ALLOW_PRIVATE_TARGETS: "true",
    });
    h.channels = h.service.deps.channels;
    h.channels.channelDeps.eventBus.subscribe((event) => {
      h.events.push(event);
    });
    h.owner = await signIn(h.service, OWNER.email, OWNER.password);
    const projects = await h.read<{ data: { id: string; orgId: string }[] }>(
      await h.owner.get("/api/projects"),
    );
    const project = projects.data[0];
    if (!project) throw new Error("no project");
    h.projectId = project.id;
    const system = { deps: h.service.deps.domain, actor: { kind: "system" as const } };
    await createUser({
      ctx: system,
      input: {
        email: "viewer@example.com",
        password: "viewer password",
        orgId: project.orgId,
        role: "viewer",
      },
    });
    await createUser({
      ctx: system,
      input: { email: "outsider@example.com", password: "outsider password", newOrg: "Other" },
    });
    h.viewer = await signIn(h.service, "viewer@example.com", "viewer password");
    h.outsider = await signIn(h.service, "outsider@example.com", "outsider password");
  });
  afterAll(async () => {
    // No response of the whole file carried a secret.
    for (const secret of h.secrets) {
      for (const body of bodies) expect(body).not.toContain(secret);
    }
    await h.service?.stop();
    dir.remove();
  });
  return h;
}
