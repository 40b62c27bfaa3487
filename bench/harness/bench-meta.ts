import { type CoreDeps, createDomainDeps } from "../../src/composition/domain-deps.js";
import { openMetaStore } from "../../src/composition/stores.js";
import type { Config } from "../../src/config/config-schema.js";
import { systemCtx } from "../../src/context.js";
import type { Metrics } from "../../src/lib/metrics.js";
import type { MetaStore } from "../../src/meta/meta-store.js";
import { initialize } from "../../src/setup/initialize.js";
import type { Cleanups } from "./run.js";

export interface BenchMeta {
  meta: MetaStore;
  domain: CoreDeps;
  /** The one project initialize() created (with its org and the bench's user). */
  projectId: string;
}

/**
 * The metadata store and the domain deps as the service builds them (src/composition/), and
 * one org and project from initialize(). `onQuery` sees each store query's time.
 */
export async function openBenchMeta(
  config: Config,
  cleanups: Cleanups,
  options: { metrics?: Metrics; onQuery?: (seconds: number, failed: boolean) => void } = {},
): Promise<BenchMeta> {
  const meta = await openMetaStore(config, options.metrics, undefined, options.onQuery);
  cleanups.push(() => meta.close());
  const domain = createDomainDeps(config, meta, {});
  const setup = await initialize({
    ctx: systemCtx(domain),
    input: { email: "bench@example.com", password: "bench password 1", withApiKey: false },
  });
  return { meta, domain, projectId: setup.projectId };
}
