import type { FieldIssue } from "../../lib/domain-errors.js";
import { privateTargetMessage, privateUrlHost } from "../../lib/http/address-policy.js";
import { redactUrl } from "../../lib/http/redact-url.js";
import type { HttpDefinition } from "../definition.js";
import { runCheck } from "../runner.js";
import type { MonitorKind } from "./monitor-kind.js";

/** api and flow: HTTP requests with assertions (runner.ts); the target is the first step's URL. */
export const httpKind: MonitorKind<HttpDefinition> = {
  scheduled: true,
  // Credentials in a URL are masked wherever it is shown.
  target: (definition) => redactUrl(definition.steps[0]?.url ?? ""),
  run: (definition, deps, signal) => runCheck(definition, deps, { signal }),
  privateTargets(definition, allowSetting) {
    const issues: FieldIssue[] = [];
    for (const [i, step] of definition.steps.entries()) {
      const host = privateUrlHost(step.url);
      if (host)
        issues.push({ field: `steps.${i}.url`, message: privateTargetMessage(host, allowSetting) });
    }
    return issues;
  },
};
