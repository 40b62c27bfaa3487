import { InvalidInputError } from "../lib/domain-errors.js";
import {
  type ErrorOccurrence,
  emptyBatch,
  type IngestBatch,
  type MappedRequest,
  type MappingOptions,
  type Source,
} from "./ingest-batch.js";
import type { Resource, Scope } from "./otlp/otlp-messages.js";
import { attributeMap, cleanText, ItemRejection } from "./otlp/values.js";

/** An optional string field as stored: well-formed, cut to the attribute length limit. */
export const text = (value: unknown, limits: { maxValueLength: number }): string =>
  cleanText(value, limits.maxValueLength);

/** An occurrence whose cut message or stack may end in half a surrogate pair, made storable. */
export function storableOccurrence(o: ErrorOccurrence): ErrorOccurrence {
  const well = (t: string) => t.toWellFormed();
  return {
    ...o,
    type: well(o.type),
    message: well(o.message),
    stacktrace: well(o.stacktrace),
    culprit: well(o.culprit),
  };
}

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
  const attributes = attributeMap(resource?.attributes, options.limits);
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

/**
 * Who sent a request, from its first resource: one SDK process (its service and instance id,
 * else its host and pid), else its service. Requests of one SDK process share it.
 */
export function senderOf(attributes: Record<string, string>): string {
  const instance =
    attributes["service.instance.id"] ||
    [attributes["host.name"] ?? "", attributes["process.pid"] ?? ""].join("/");
  return `${attributes["service.name"] ?? ""}|${instance}`;
}

/** An item's own `vigil.source` attribute overrides its resource's. */
export function itemSource(attributes: Record<string, string>, resource: ResourceContext): Source {
  const explicit = attributes["vigil.source"];
  return explicit === "frontend" || explicit === "backend" ? explicit : resource.source;
}

const scopeColumns = (scope: Scope | null | undefined, options: MappingOptions) => ({
  scope_name: text(scope?.name, options.limits),
  scope_version: text(scope?.version, options.limits),
});

/** The first attribute present among several names (stable semantic-convention name first). */
export function firstOf(
  attributes: Record<string, string>,
  first: string,
  second?: string,
  third?: string,
): string {
  // Fixed arity, not rest parameters: called several times a span, it allocates nothing.
  return (
    attributes[first] ||
    (second !== undefined && attributes[second]) ||
    (third !== undefined && attributes[third]) ||
    ""
  );
}

const QUERY_OR_FRAGMENT = /[?#]/;

/** The path of a URL or path-with-query; '' when there is none. */
export function pathOf(target: string): string {
  if (!target) return "";
  if (target.startsWith("/")) {
    const end = target.search(QUERY_OR_FRAGMENT);
    return end < 0 ? target : target.slice(0, end);
  }
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

/** Field names of one signal's envelope: resource list, scope list, item list. */
export interface EnvelopeFields {
  resources: string;
  scopes: string;
  items: string;
}

/** An envelope array (OTLP/JSON can hold anything): absent is empty, any other shape is a 400. */
function envelopeList<T>(value: unknown, path: string): readonly T[] {
  if (value == null) return [];
  if (!Array.isArray(value)) throw InvalidInputError.forField(path, "must be an array");
  return value as T[];
}

/** An envelope object; null stands for absent, as OTLP/JSON senders may write it. */
function envelopeObject<T>(value: T, path: string): T {
  if (value != null && (typeof value !== "object" || Array.isArray(value)))
    throw InvalidInputError.forField(path, "must be an object");
  return value;
}

/** A resource is no item to reject alone: what would reject an item is a 400 naming the field. */
function envelopeField<T>(path: string, map: () => T): T {
  try {
    return map();
  } catch (error) {
    if (error instanceof ItemRejection) throw InvalidInputError.forField(path, error.message);
    throw error;
  }
}

/**
 * Walks resource → scope → items of an export request and maps each item in isolation: a
 * reason returned or an ItemRejection thrown rejects that item alone (anything else thrown by a
 * malformed item too). A wrong shape above the items (the envelope) is a 400 naming the field.
 */
export function mapEachItem<
  R extends { resource?: Resource | null },
  S extends { scope?: Scope | null },
  I,
>(
  resources: readonly R[] | null | undefined,
  scopesOf: (resource: R) => readonly S[] | null | undefined,
  itemsOf: (scope: S) => readonly I[] | null | undefined,
  fields: EnvelopeFields,
  options: MappingOptions,
  malformed: string,
  mapItem: (item: I, context: ItemContext) => string | undefined,
): MappedRequest {
  const batch = emptyBatch();
  const rejections = new Rejections();
  let sender = "";
  envelopeList<R>(resources, fields.resources).forEach((r, i) => {
    const rPath = `${fields.resources}[${i}]`;
    envelopeObject(r, rPath);
    if (r == null) return;
    const resource = envelopeField(`${rPath}.resource`, () =>
      resourceContext(envelopeObject(r.resource, `${rPath}.resource`), options),
    );
    if (i === 0) sender = senderOf(resource.attributes);
    envelopeList<S>(scopesOf(r), `${rPath}.${fields.scopes}`).forEach((s, j) => {
      const sPath = `${rPath}.${fields.scopes}[${j}]`;
      envelopeObject(s, sPath);
      if (s == null) return;
      const scope = scopeColumns(envelopeObject(s.scope, `${sPath}.scope`), options);
      const context = { resource, scope, options, batch, rejections };
      for (const item of envelopeList<I>(itemsOf(s), `${sPath}.${fields.items}`)) {
        try {
          if (item == null || typeof item !== "object" || Array.isArray(item)) {
            rejections.add(`${fields.items} entries must be objects`);
            continue;
          }
          const reason = mapItem(item, context);
          if (reason) rejections.add(reason);
        } catch (error) {
          rejections.add(error instanceof ItemRejection ? error.message : malformed);
        }
      }
    });
  });
  return { batch, rejected: rejections.count, reasons: rejections.messages(), sender };
}
