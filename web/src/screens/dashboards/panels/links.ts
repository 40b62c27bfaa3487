import type { PanelLink } from "../../../../../src/contracts/dashboards.js";
import { projectPath } from "../../../lib/project-path.js";
import { aroundRange, traceLogsHref, withRange } from "../../../lib/time-range-model.js";

/**
 * Where a panel's data leads. Renderers ask `linkFor` for an app path ("/projects/…", which they
 * open through the router) and show no link when it answers null. The screen may pass its own
 * (a dashboard link that carries its variables); `defaultLinkFor` covers traces and logs.
 */
export type PanelLinkTarget =
  /** One trace, with a span selected. */
  | { kind: "trace"; traceId: string; spanId?: string | undefined }
  /** One log record (by id), else the logs of a trace; `time` (ISO) sets the window around it. */
  | {
      kind: "log";
      logId?: string | undefined;
      traceId?: string | undefined;
      time?: string | undefined;
    }
  /** A panel link, its `${column}` placeholders filled from the clicked row or item. */
  | { kind: "link"; link: PanelLink; values: Readonly<Record<string, string>> };

export type LinkFor = (target: PanelLinkTarget) => string | null;

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_.]*)\}/g;

/**
 * A link's `params` (`service=${service_name}&status=error`) as a query string: each
 * placeholder's value URL-encoded (an absent one is empty), then read back as parameters, so
 * a value can add nothing but its own text.
 */
export function linkQuery(params: string, values: Readonly<Record<string, string>>): string {
  const filled = params.replace(PLACEHOLDER, (_, name: string) =>
    encodeURIComponent(values[name] ?? ""),
  );
  return new URLSearchParams(filled.replace(/^\?/, "")).toString();
}

/** Links to the traces and logs screens of the project, over the panel's window. */
export function defaultLinkFor(projectId: string, window: { from: string; to: string }): LinkFor {
  const absolute = { kind: "absolute" as const, from: window.from, to: window.to };
  return (target) => {
    switch (target.kind) {
      case "trace": {
        const path = projectPath(projectId, "traces", target.traceId);
        return target.spanId ? `${path}?${new URLSearchParams({ span: target.spanId })}` : path;
      }
      case "log": {
        const logs = projectPath(projectId, "logs");
        if (!target.logId)
          return target.traceId
            ? traceLogsHref(logs, target.traceId, target.time ?? window.from, target.time)
            : null;
        const href = `${logs}?${new URLSearchParams({ log: target.logId })}`;
        const around = target.time ? aroundRange(target.time) : null;
        return withRange(href, around ?? absolute);
      }
      case "link": {
        const { link, values } = target;
        const query = linkQuery(link.params ?? "", values);
        const path =
          link.kind === "dashboard"
            ? link.dashboardId
              ? projectPath(projectId, "dashboards", link.dashboardId)
              : null
            : projectPath(projectId, link.kind);
        return path && withRange(query ? `${path}?${query}` : path, absolute);
      }
    }
  };
}
