import type { Logger } from "pino";
import type { Config } from "../config/config-schema.js";
import type { Metrics } from "../lib/metrics.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { MetaStore } from "../meta/meta-store.js";
import type { Mailer } from "../notifications/channels/channel-type.js";
import { createStatusPageReader, type StatusPageReader } from "../status-pages/reader.js";
import type { SubscriberDeps } from "../status-pages/subscribers.js";
import {
  createSubscriberWorker,
  type SubscriberWorker,
} from "../status-pages/subscribers-worker.js";
import { createStatusPageTicker, type StatusPageTicker } from "../status-pages/ticker.js";
import type { CoreDeps } from "./domain-deps.js";
import type { OutboundAgent } from "./monitors.js";

/** Status pages: cached public reads, the ticker, and the subscribers' worker and verbs' deps. */
export interface AppStatusPages {
  reader: StatusPageReader;
  ticker: StatusPageTicker;
  /** Announces page changes to subscribers and sends their outbox (worker nodes start it). */
  subscribers: SubscriberWorker;
  /** The subscribers' verbs' section of the domain deps. */
  subscriberDeps: SubscriberDeps;
}

export function createStatusPages(deps: {
  config: Config;
  meta: MetaStore;
  domain: Pick<CoreDeps, "clock" | "statusPages" | "newId" | "appUrl">;
  logger: Logger;
  metrics: Metrics;
  secretBox: SecretBox;
  /** The server's SMTP mailer (undefined without VIGIL_SMTP_URL). */
  mailer: Mailer | undefined;
  /** The SSRF-guarded agent subscribers' webhooks are posted through. */
  outbound: OutboundAgent;
}): AppStatusPages {
  const { meta, domain, logger, secretBox } = deps;
  const subscribers = createSubscriberWorker({
    meta,
    clock: domain.clock,
    newId: domain.newId,
    appUrl: domain.appUrl,
    secretBox,
    mailer: deps.mailer,
    dispatcher: deps.outbound,
    logger,
    metrics: deps.metrics,
    onFailure: (failure) => logger.warn(failure, "status page subscriber message not delivered"),
  });
  return {
    reader: createStatusPageReader({ meta, clock: domain.clock }),
    ticker: createStatusPageTicker({ engine: domain.statusPages, meta, logger }),
    subscribers,
    subscriberDeps: {
      secretBox,
      emailAvailable: deps.mailer !== undefined,
      allowPrivateTargets: deps.config.monitors.allowPrivateTargets,
      kick: () => subscribers.kick(),
    },
  };
}
