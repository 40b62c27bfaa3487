import type { Logger } from "pino";
import type { MetaStore } from "../meta/meta-store.js";
import { createStatusPageReader, type StatusPageReader } from "../status-pages/reader.js";
import { createStatusPageTicker, type StatusPageTicker } from "../status-pages/ticker.js";
import type { CoreDeps } from "./domain-deps.js";

/** Status pages: cached public reads and the ticker (maintenance edges, reconciliation). */
export interface AppStatusPages {
  reader: StatusPageReader;
  ticker: StatusPageTicker;
}

export function createStatusPages(deps: {
  meta: MetaStore;
  domain: Pick<CoreDeps, "clock" | "statusPages">;
  logger: Logger;
}): AppStatusPages {
  const { meta, domain, logger } = deps;
  return {
    reader: createStatusPageReader({ meta, clock: domain.clock }),
    ticker: createStatusPageTicker({ engine: domain.statusPages, meta, logger }),
  };
}
