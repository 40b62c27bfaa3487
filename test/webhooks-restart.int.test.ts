import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, startServeProcess } from "./helpers/run-cli.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import {
  type ReceivedRequest,
  startWebhookReceiver,
  TEST_CA_FILE,
  type WebhookReceiver,
} from "./helpers/webhook-receiver.js";

// Real processes killed with SIGKILL: what they left in the durable queue must still go out.
// One lifecycle serves both cases: a retry pending (attempt 1 answered 500) and an attempt in
// flight (the receiver never answers) when the first process is killed.

const OWNER = { email: "hooks-restart@example.com", password: "correct horse battery" };
const ENV = {
  VIGIL_ADMIN_EMAIL: OWNER.email,
  VIGIL_ADMIN_PASSWORD: OWNER.password,
  VIGIL_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
  VIGIL_WEBHOOKS_CA_FILE: TEST_CA_FILE,
};
/** A test's own wait: the retry is due 60 s after attempt 1, the lease ends 30 s after the claim. */
const LONG = 120_000;

const header = (request: ReceivedRequest | undefined, name: string) => {
  const value = request?.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
const attemptOf = (request: ReceivedRequest | undefined) =>
  (JSON.parse(request?.body ?? "{}") as { attempt?: number }).attempt;

async function waitForRequest(
  receiver: WebhookReceiver,
  what: string,
  match: (request: ReceivedRequest) => boolean,
  timeoutMs: number,
): Promise<ReceivedRequest> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = receiver.requests.find(match);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; got ${receiver.requests.map((r) => `${header(r, "webhook-id")}#${attemptOf(r)}`).join(", ")}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("webhook deliveries across a killed process", () => {
  const dir = makeTempDir();
  let receiver: WebhookReceiver;
  let second: ServeProcess | undefined;
  let webhook: Webhook;
  let cookie = "";
  let projectId = "";
  let endpointId = "";
  /** Ping 1's attempt 1: answered 500, so its retry was pending at the kill. */
  let failed: ReceivedRequest;
  /** Ping 2's attempt 1: in flight (never answered) at the kill. */
  let held: ReceivedRequest;

  beforeAll(async () => {
    // The first test.ping fails (500, every attempt); the first attempt of the second one is
    // never answered; anything after that is accepted.
    const pings: string[] = [];
    let holding = true;
    receiver = await startWebhookReceiver((request) => {
      if (request.body === '{"type":"endpoint.verify"}') return { status: 200 };
      const id = header(request, "webhook-id") ?? "";
      if (!pings.includes(id)) pings.push(id);
      if (id === pings[0]) return { status: 500, body: "not now" };
      if (id === pings[1] && holding) {
        holding = false;
        return { status: 200, delayMs: 600_000 };
      }
      return { status: 200 };
    });

    const first = await startServeProcess(["--data-dir", dir.path], ENV);
    try {
      const login = await fetch(`${first.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: first.url },
        body: JSON.stringify(OWNER),
      });
      expect(login.status).toBe(200);
      cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      const projects = (await (
        await fetch(`${first.url}/api/projects`, { headers: { cookie } })
      ).json()) as { data: { id: string }[] };
      projectId = projects.data[0]?.id ?? "";
      const write = (path: string, body: unknown) =>
        fetch(`${first.url}${path}`, {
          method: "POST",
          headers: { cookie, origin: first.url, "content-type": "application/json" },
          body: JSON.stringify(body),
        });

      const created = await write(`/webhooks/${projectId}/endpoints`, {
        url: `${receiver.url}/hook`,
        events: ["monitor.down"],
      });
      const endpoint = (await created.json()) as { id: string; secret: string };
      expect(created.status, JSON.stringify(endpoint)).toBe(201);
      endpointId = endpoint.id;
      webhook = new Webhook(endpoint.secret);

      // Ping 1: answered 500, so attempt 2 is due 60 s later.
      const ping = await write(`/webhooks/${projectId}/endpoints/${endpointId}/test`, {});
      const record = (await ping.json()) as {
        messageId: string;
        attempt: number;
        status: number;
        attemptedAt: string;
        retryAt: string | null;
      };
      expect(ping.status, JSON.stringify(record)).toBe(200);
      expect(record).toMatchObject({ attempt: 1, status: 500, success: false });
      expect(Date.parse(record.retryAt ?? "") - Date.parse(record.attemptedAt)).toBeGreaterThan(
        59_000,
      );
      failed = await waitForRequest(
        receiver,
        "the first ping",
        (r) => header(r, "webhook-id") === record.messageId,
        1_000,
      );
      expect(attemptOf(failed)).toBe(1);

      // Ping 2: the receiver holds it. POST …/test waits for the attempt, so it is not awaited
      // (it fails when the process dies).
      void write(`/webhooks/${projectId}/endpoints/${endpointId}/test`, {}).catch(() => undefined);
      held = await waitForRequest(
        receiver,
        "the second ping",
        (r) => r !== failed && r.body.includes('"test.ping"'),
        5_000,
      );
      expect(holding).toBe(false);
      expect(held.body).toContain('"test.ping"');
      expect(attemptOf(held)).toBe(1);
    } finally {
      // Killed with the retry of ping 1 pending and the attempt of ping 2 in flight.
      await first.kill();
    }
    second = await startServeProcess(["--data-dir", dir.path], ENV);
  }, LONG);

  afterAll(async () => {
    if (second) expect(await second.stop()).toBe(0);
    await receiver?.close();
    dir.remove();
  });

  it(
    "sends the retry that was pending when the process was killed, 60 s after attempt 1",
    async () => {
      const id = header(failed, "webhook-id");
      const again = await waitForRequest(
        receiver,
        "attempt 2 of the first ping",
        (r) => header(r, "webhook-id") === id && attemptOf(r) === 2,
        LONG - 10_000,
      );
      const gap = again.at - failed.at;
      expect(gap).toBeGreaterThanOrEqual(59_000);
      expect(gap).toBeLessThan(75_000);
      const headers = (r: ReceivedRequest) => r.headers as Record<string, string>;
      expect(webhook.verify(failed.body, headers(failed))).toMatchObject({
        event: "test.ping",
        attempt: 1,
      });
      expect(webhook.verify(again.body, headers(again))).toMatchObject({
        event: "test.ping",
        attempt: 2,
        data: { type: "test.ping", projectId },
      });
      expect(Number(header(again, "webhook-timestamp"))).toBeGreaterThanOrEqual(
        Number(header(failed, "webhook-timestamp")) + 59,
      );
      // Answered 500 again: no third attempt.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(receiver.requests.filter((r) => header(r, "webhook-id") === id)).toHaveLength(2);
    },
    LONG,
  );

  it(
    "makes the attempt that was in flight when the process was killed again after its lease",
    async () => {
      const id = header(held, "webhook-id");
      const again = await waitForRequest(
        receiver,
        "the second ping again",
        (r) => r !== held && header(r, "webhook-id") === id,
        LONG - 10_000,
      );
      // Leased for 30 s from its enqueueing, a moment before it reached the receiver.
      const gap = again.at - held.at;
      expect(gap).toBeGreaterThanOrEqual(29_000);
      expect(gap).toBeLessThan(45_000);
      const payload = webhook.verify(again.body, again.headers as Record<string, string>);
      expect(payload).toMatchObject({ event: "test.ping", attempt: 1 });
      expect(payload).toEqual(
        webhook.verify(held.body, held.headers as Record<string, string>) as object,
      );
      expect(Number(header(again, "webhook-timestamp"))).toBeGreaterThan(
        Number(header(held, "webhook-timestamp")),
      );
    },
    LONG,
  );

  it(
    "logs what the new process delivered; the killed attempt left no record",
    async () => {
      const service = second?.url ?? "";
      const retryId = header(failed, "webhook-id");
      const heldId = header(held, "webhook-id");
      const log = async () =>
        (
          (await (
            await fetch(`${service}/webhooks/${projectId}/endpoints/${endpointId}/deliveries`, {
              headers: { cookie },
            })
          ).json()) as {
            data: {
              messageId: string;
              attempt: number;
              status: number;
              success: boolean;
              retryAt: string | null;
            }[];
          }
        ).data;
      // The recording follows the answer by a moment.
      const deadline = Date.now() + 5_000;
      let records = await log();
      while (records.length < 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        records = await log();
      }
      const summary = records.map((r) => [r.messageId, r.attempt, r.status, r.retryAt]);
      expect(summary).toHaveLength(3);
      expect(summary).toEqual(
        expect.arrayContaining([
          [retryId, 2, 500, null],
          [retryId, 1, 500, null],
          [heldId, 1, 200, null],
        ]),
      );
    },
    LONG,
  );
});
