import { type Ctx, type DomainDeps, nowIso } from "../context.js";
import {
  type CreatedWebhookEndpointView,
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  type WebhookDeliveryRecordView,
  type WebhookEndpointView,
  type WebhookEventTypeView,
} from "../contracts/webhooks.js";
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  UnavailableError,
} from "../lib/domain-errors.js";
import { isLoopbackUrlHost } from "../lib/http/address-policy.js";
import { parseInput } from "../lib/validation.js";
import type { Repositories } from "../meta/meta-store.js";
import type { WebhookEndpointRecord } from "../meta/repositories/webhook-endpoints.js";
import { requireProject } from "../projects/projects.js";
import { LEASE_MS } from "./delivery-queue.js";
import { generateSecret, openSecret, signatureHeaders, signingKey } from "./signing.js";
import { testPingPayload } from "./test-ping-event.js";
import { isSuccess, type WebhookAnswer } from "./transport.js";
import type { WebhookService } from "./webhook-service.js";
import { toWebhookDeliveryRecordView, toWebhookEndpointView } from "./webhook-views.js";

/** Spec: the receiver must answer a verification request with a 2xx within 8 seconds. */
const VERIFY_TIMEOUT_MS = 8_000;
/** Spec: the delivery log shows the last 50 records. */
export const DELIVERY_LOG_LIMIT = 50;
/** Endpoints one project may have (the spec leaves it open; Svix and GitHub allow about 20). */
const MAX_ENDPOINTS_PER_PROJECT = 20;

/** What the webhook verbs need: the domain deps and the webhook service. */
export type WebhookDomainDeps = DomainDeps & { webhooks: WebhookService };
export type WebhookCtx = Ctx<WebhookDomainDeps>;
type ProjectArgs = { ctx: WebhookCtx; projectId: string };
type EndpointArgs = ProjectArgs & { endpointId: string };

/** The project's endpoint; one of another project is reported as not found. */
async function requireEndpoint(
  repos: Repositories,
  projectId: string,
  endpointId: string,
): Promise<WebhookEndpointRecord> {
  const endpoint = await repos.webhookEndpoints.findById(endpointId);
  if (!endpoint || endpoint.projectId !== projectId)
    throw new NotFoundError("Webhook endpoint", endpointId);
  return endpoint;
}

/** The endpoint did not accept the verification request; the problem says why. */
class VerificationFailedError extends InvalidInputError {
  override readonly extensions: Readonly<Record<string, unknown>>;

  constructor(answer: Exclude<WebhookAnswer, { aborted: true }>) {
    const reason = answer.error?.code ?? "status";
    const why = verificationFailure(answer);
    super(`url: verification failed: ${why}`, [
      { field: "url", message: `verification failed: ${why}` },
    ]);
    this.extensions = {
      verification: {
        reason,
        status: answer.statusCode,
        durationMs: answer.durationMs,
      },
    };
  }
}

function verificationFailure(answer: Exclude<WebhookAnswer, { aborted: true }>): string {
  const limit = `${VERIFY_TIMEOUT_MS / 1000} s`;
  if (!answer.error) {
    const redirect =
      answer.statusCode >= 300 && answer.statusCode < 400
        ? "; redirects are not followed, so register the final URL"
        : "";
    return `the endpoint answered HTTP ${answer.statusCode}; it must answer 2xx within ${limit}${redirect}`;
  }
  switch (answer.error.code) {
    case "timeout":
      return `the endpoint did not answer within ${limit}`;
    case "dns":
      return "the host name could not be resolved";
    default:
      // The transport's user-facing text (a blocked address is not named).
      return answer.body;
  }
}

/**
 * Refuses a plain http:// URL unless the server allows it and the host is this machine: anything
 * else crosses a network unencrypted, which a signature does not make private.
 */
function requireAllowedScheme(service: WebhookService, text: string): void {
  const url = new URL(text);
  if (url.protocol === "https:") return;
  const why = service.allowHttpLoopback
    ? "plain http:// is accepted only on a loopback host (localhost, 127.0.0.0/8, [::1])"
    : "plain http:// to a loopback host needs a server started with --dev (VIGIL_WEBHOOKS_ALLOW_HTTP_LOOPBACK=true)";
  if (!service.allowHttpLoopback || !isLoopbackUrlHost(url))
    throw InvalidInputError.forField("url", `must be an https:// URL; ${why}`);
}

/**
 * POSTs `{"type":"endpoint.verify"}` (signed with the endpoint's secret) and resolves when the
 * endpoint answered 2xx within 8 s; otherwise throws a 400 naming `url` and saying why.
 */
async function verifyUrl(ctx: WebhookCtx, url: string, secret: string): Promise<void> {
  const body = JSON.stringify({ type: "endpoint.verify" });
  const answer = await ctx.deps.webhooks.send({
    url,
    event: "endpoint.verify",
    body,
    signature: signatureHeaders(
      signingKey(secret),
      ctx.deps.newId("msg"),
      ctx.deps.clock.now(),
      body,
    ),
    timeoutMs: VERIFY_TIMEOUT_MS,
  });
  if (answer.aborted) throw new UnavailableError("The service is shutting down; try again shortly");
  if (!isSuccess(answer.statusCode)) throw new VerificationFailedError(answer);
}

/**
 * Creates an endpoint (members and above) once its URL answered the verification request; the
 * response carries the signing secret, the only time it is shown.
 */
export async function createEndpoint({
  ctx,
  projectId,
  input,
}: ProjectArgs & { input: CreateWebhookEndpointInput }): Promise<CreatedWebhookEndpointView> {
  await requireProject({ ctx, projectId, access: "write" });
  const { url, events } = parseInput(CreateWebhookEndpointInput, input);
  const repos = ctx.deps.meta.repos;
  if ((await repos.webhookEndpoints.countByProject(projectId)) >= MAX_ENDPOINTS_PER_PROJECT)
    throw new ConflictError(
      `A project can have at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints; delete one first`,
    );
  const service = ctx.deps.webhooks;
  requireAllowedScheme(service, url);
  const secret = generateSecret();
  await verifyUrl(ctx, url, secret);
  const at = nowIso(ctx.deps);
  const record = await repos.webhookEndpoints.insert({
    id: ctx.deps.newId("whe"),
    projectId,
    url,
    events,
    isActive: true,
    secret: service.secretBox.seal(secret),
    createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
    createdAt: at,
    updatedAt: at,
  });
  return { ...toWebhookEndpointView(record), secret };
}

export async function listEndpoints({
  ctx,
  projectId,
}: ProjectArgs): Promise<WebhookEndpointView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const endpoints = await ctx.deps.meta.repos.webhookEndpoints.listByProject(projectId);
  return endpoints.map(toWebhookEndpointView);
}

/** Changes isActive, events and url (a new URL is verified again first). */
export async function updateEndpoint({
  ctx,
  projectId,
  endpointId,
  input,
}: EndpointArgs & { input: UpdateWebhookEndpointInput }): Promise<WebhookEndpointView> {
  await requireProject({ ctx, projectId, access: "write" });
  const change = parseInput(UpdateWebhookEndpointInput, input);
  const existing = await requireEndpoint(ctx.deps.meta.repos, projectId, endpointId);
  const url = change.url ?? existing.url;
  const service = ctx.deps.webhooks;
  if (url !== existing.url) {
    requireAllowedScheme(service, url);
    let secret: string;
    try {
      secret = openSecret(service.secretBox, existing.secret);
    } catch {
      throw new ConflictError(
        "The endpoint's signing secret cannot be read with this server's key; delete the endpoint and create it again",
      );
    }
    await verifyUrl(ctx, url, secret);
  }
  // Only the fields sent are written, so a change made meanwhile (during verification) stays.
  const updatedAt = nowIso(ctx.deps);
  const fields = {
    ...(url !== existing.url ? { url } : {}),
    ...(change.events ? { events: change.events } : {}),
    ...(change.isActive !== undefined ? { isActive: change.isActive } : {}),
    updatedAt,
  };
  const updated = await ctx.deps.meta.transaction(async ({ repos }) => {
    const found = await repos.webhookEndpoints.update(existing.id, fields);
    // Disabled: what was pending for it is dropped, not kept for when it is enabled again.
    if (found && change.isActive === false)
      await repos.webhookDeliveries.cancelPendingOf(existing.id, updatedAt);
    return found && (await repos.webhookEndpoints.findById(existing.id));
  });
  if (!updated) throw new NotFoundError("Webhook endpoint", endpointId);
  // Claimed deliveries go out with the endpoint's new URL and state, or not at all.
  await service.deliverer.forget(existing.id);
  return toWebhookEndpointView(updated);
}

/** Deletes the endpoint and its whole delivery history, pending retries included. */
export async function deleteEndpoint({ ctx, projectId, endpointId }: EndpointArgs): Promise<void> {
  await requireProject({ ctx, projectId, access: "write" });
  const endpoint = await requireEndpoint(ctx.deps.meta.repos, projectId, endpointId);
  await ctx.deps.meta.repos.webhookEndpoints.delete(endpoint.id);
  await ctx.deps.webhooks.deliverer.forget(endpoint.id);
}

/**
 * Sends a test.ping to the endpoint now and answers with its delivery record; it is queued and
 * logged like a real delivery, so a failed ping is retried once 60 s later.
 */
export async function testEndpoint({
  ctx,
  projectId,
  endpointId,
}: EndpointArgs): Promise<WebhookDeliveryRecordView> {
  await requireProject({ ctx, projectId, access: "write" });
  const endpoint = await requireEndpoint(ctx.deps.meta.repos, projectId, endpointId);
  if (!endpoint.isActive)
    throw new ConflictError(
      "The endpoint is disabled and receives nothing; enable it (PATCH isActive: true) to test it",
    );
  const now = ctx.deps.clock.now();
  const messageId = ctx.deps.newId("msg");
  const data = testPingPayload(projectId, now);
  const delivery = {
    id: ctx.deps.newId("dlv"),
    projectId,
    endpointId: endpoint.id,
    messageId,
    eventId: messageId,
    event: "test.ping",
    payload: JSON.stringify(data),
    createdAt: now.toISOString(),
    // Leased to this request, so the deliverer leaves attempt 1 to it.
    nextAttemptAt: new Date(now.getTime() + LEASE_MS).toISOString(),
  };
  await ctx.deps.meta.repos.webhookDeliveries.enqueue([delivery]);
  const outcome = await ctx.deps.webhooks.deliverer.attemptNow(
    { ...delivery, status: "pending", attempts: 0, finishedAt: null },
    endpoint,
  );
  return toWebhookDeliveryRecordView(
    { ...outcome.attempt, retryAt: outcome.nextAttemptAt },
    delivery.payload,
  );
}

/** The endpoint's last 50 delivery records, newest first. */
export async function listDeliveries({
  ctx,
  projectId,
  endpointId,
}: EndpointArgs): Promise<WebhookDeliveryRecordView[]> {
  await requireProject({ ctx, projectId, access: "read" });
  const endpoint = await requireEndpoint(ctx.deps.meta.repos, projectId, endpointId);
  const attempts = await ctx.deps.meta.repos.webhookDeliveries.listAttempts(
    endpoint.id,
    DELIVERY_LOG_LIMIT,
  );
  const payloads = await ctx.deps.meta.repos.webhookDeliveries.payloadsOf(
    attempts.map((a) => a.deliveryId),
  );
  return attempts.map((a) => toWebhookDeliveryRecordView(a, payloads.get(a.deliveryId) ?? "null"));
}

/** Every subscribable event type, with the JSON Schema and an example of its payload. */
export async function listEventTypes({
  ctx,
}: {
  ctx: WebhookCtx;
}): Promise<WebhookEventTypeView[]> {
  return ctx.deps.webhooks.eventTypes.list();
}
