import type { Logger } from "pino";
import type { DomainDeps } from "../context.js";
import type { MetaStore } from "../meta/meta-store.js";
import { createStatusPageReader, type StatusPageReader } from "../status-pages/reader.js";
import { createStatusPageTicker, type StatusPageTicker } from "../status-pages/ticker.js";

/** Status pages: cached public reads and the ticker (maintenance edges, reconciliation). */
export interface AppStatusPages {
  reader: StatusPageReader;
  ticker: StatusPageTicker;
}

export function createStatusPages(deps: {
  meta: MetaStore;
  domain: Pick<DomainDeps, "clock" | "statusPages">;
  logger: Logger;
}): AppStatusPages {
  const { meta, domain, logger } = deps;
  return {
    reader: createStatusPageReader({ meta, clock: domain.clock }),
    ticker: createStatusPageTicker({ engine: domain.statusPages, meta, logger }),
  };
}
