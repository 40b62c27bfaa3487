import { readFileSync } from "node:fs";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import { generateSecret } from "../../src/webhooks/signing.js";
import type { TestService } from "./test-service.js";

const TLS_DIR = new URL("../fixtures/tls/", import.meta.url);

/** The test CA's certificate file: give it to the service as VIGIL_WEBHOOKS_CA_FILE. */
export const TEST_CA_FILE = fileURLToPath(new URL("ca.pem", TLS_DIR));

/** One request the receiver got. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when its body had arrived. */
  at: number;
}

/** What the receiver answers: a status, an optional body, and a delay before answering. */
export interface Answer {
  status: number;
  body?: string;
  delayMs?: number;
  headers?: Record<string, string>;
}

export type Responder = (request: ReceivedRequest) => Answer;

export interface WebhookReceiver {
  /** https://localhost:<port> (add a path of your choice). */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Changes how later requests are answered. */
  respond(responder: Responder): void;
  /** Resolves once `count` requests arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A local HTTPS receiver with a certificate signed by the test CA; answers 200 unless told otherwise. */
export async function startWebhookReceiver(
  responder: Responder = () => ({ status: 200 }),
): Promise<WebhookReceiver> {
  let answer = responder;
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      requests.push(received);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
      const { status, body = "", delayMs = 0, headers = {} } = answer(received);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(status, { "content-type": "text/plain", ...headers });
        res.end(body);
      };
      if (delayMs <= 0) send();
      else {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, delayMs);
        timers.add(timer);
      }
    });
  };
  const server: Server = createServer(
    {
      key: readFileSync(new URL("receiver.key", TLS_DIR)),
      cert: readFileSync(new URL("receiver.pem", TLS_DIR)),
    },
    handle,
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}`,
    port,
    requests,
    respond(next) {
      answer = next;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve(requests.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} webhook requests, got ${requests.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests.slice());
          },
        });
      });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Stores an enabled endpoint of the project pointing at the receiver, without the verification
 * request (that is the webhook API's business), and returns a verifier of its signatures.
 */
export async function addReceiverEndpoint(
  service: TestService,
  endpoint: { id: string; projectId: string; url: string; events: string[] },
): Promise<Webhook> {
  const secret = generateSecret();
  const now = new Date().toISOString();
  await service.deps.meta.repos.webhookEndpoints.insert({
    ...endpoint,
    isActive: true,
    secret: service.deps.webhooks.secretBox.seal(secret),
    createdBy: null,
    createdAt: now,
    updatedAt: now,
  });
  return new Webhook(secret);
}
