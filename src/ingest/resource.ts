import {
  emptyBatch,
  type IngestBatch,
  type MappedRequest,
  type MappingOptions,
  type Source,
} from "./model.js";
import type { Resource, Scope } from "./otlp/types.js";
import { attributeMap } from "./otlp/values.js";

/** Returns the value if it is an array, else an empty one: OTLP/JSON senders can send anything. */
export const list = <T>(value: readonly T[] | null | undefined): readonly T[] =>
  Array.isArray(value) ? value : [];

export const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** What every row of one resource shares. */
export interface ResourceContext {
  attributes: Record<string, string>;
  serviceName: string;
  serviceVersion: string;
  source: Source;
  sessionId: string;
  userId: string;
  userAgent: string;
}

const BROWSER_RESOURCE_KEYS = [
  "browser.platform",
  "browser.brands",
  "browser.language",
  "browser.mobile",
];

/** An explicit `vigil.source` attribute wins; browser SDKs are recognized by their resource. */
function resourceSource(attributes: Record<string, string>): Source {
  const explicit = attributes["vigil.source"];
  if (explicit === "frontend" || explicit === "backend") return explicit;
  if (attributes["telemetry.sdk.language"] === "webjs") return "frontend";
  return BROWSER_RESOURCE_KEYS.some((key) => key in attributes) ? "frontend" : "backend";
}

function resourceContext(
  resource: Resource | null | undefined,
  options: MappingOptions,
): ResourceContext {
  const attributes = attributeMap(list(resource?.attributes), options.limits);
  return {
    attributes,
    serviceName: attributes["service.name"] || "unknown_service",
    serviceVersion: attributes["service.version"] ?? "",
    source: resourceSource(attributes),
    sessionId: attributes["session.id"] ?? "",
    userId: attributes["user.id"] ?? attributes["enduser.id"] ?? "",
    userAgent: attributes["user_agent.original"] ?? attributes["browser.user_agent"] ?? "",
  };
}

/** An item's own `vigil.source` attribute overrides its resource's. */
export function itemSource(attributes: Record<string, string>, resource: ResourceContext): Source {
  const explicit = attributes["vigil.source"];
  return explicit === "frontend" || explicit === "backend" ? explicit : resource.source;
}

const scopeColumns = (scope: Scope | null | undefined) => ({
  scope_name: text(scope?.name),
  scope_version: text(scope?.version),
});

/** The first attribute present among several names (stable semantic-convention name first). */
export function firstOf(attributes: Record<string, string>, ...names: string[]): string {
  for (const name of names) {
    const value = attributes[name];
    if (value !== undefined && value !== "") return value;
  }
  return "";
}

/** The path of a URL or path-with-query; '' when there is none. */
export function pathOf(target: string): string {
  if (!target) return "";
  if (target.startsWith("/")) return target.split(/[?#]/, 1)[0] ?? "";
  try {
    return new URL(target).pathname;
  } catch {
    return "";
  }
}

/** Collects rejection reasons, each once, with a count. */
class Rejections {
  count = 0;
  private readonly reasons = new Map<string, number>();

  add(reason: string): void {
    this.count++;
    this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
  }

  messages(): string[] {
    return [...this.reasons].map(([reason, n]) => `${n} rejected: ${reason}`);
  }
}

export type ScopeColumns = ReturnType<typeof scopeColumns>;

/** What one item mapper gets: the item's resource and scope, the batch to fill, and where to count rejections. */
export interface ItemContext {
  resource: ResourceContext;
  scope: ScopeColumns;
  options: MappingOptions;
  batch: IngestBatch;
  rejections: Rejections;
}

/**
 * Walks resource → scope → items of an export request and maps each item in isolation: a
 * reason returned, or anything thrown by a malformed item, rejects that item alone.
 */
export function mapEachItem<
  R extends { resource?: Resource | null },
  S extends { scope?: Scope | null },
  I,
>(
  resources: readonly R[] | null | undefined,
  scopesOf: (resource: R) => readonly S[] | null | undefined,
  itemsOf: (scope: S) => readonly I[] | null | undefined,
  options: MappingOptions,
  malformed: string,
  mapItem: (item: I, context: ItemContext) => string | undefined,
): MappedRequest {
  const batch = emptyBatch();
  const rejections = new Rejections();
  for (const r of list(resources)) {
    const resource = resourceContext(r.resource, options);
    for (const s of list(scopesOf(r))) {
      const context = { resource, scope: scopeColumns(s.scope), options, batch, rejections };
      for (const item of list(itemsOf(s))) {
        try {
          const reason = mapItem(item, context);
          if (reason) rejections.add(reason);
        } catch {
          rejections.add(malformed);
        }
      }
    }
  }
  return { batch, rejected: rejections.count, reasons: rejections.messages() };
}
