import Bowser from "bowser";
import type { Row, SessionTouch, Source } from "../ingest-batch.js";
import { millisToDateTime } from "../otlp/values.js";
import { firstOf, pathOf, type ResourceContext } from "../resource.js";

export interface TouchInput {
  projectId: string;
  sessionId: string;
  timestampMs: number;
  kind: SessionTouch["kind"];
  /** The errors it recorded (sessionErrorKey, failedSpanKey); none for most. */
  errorKeys: string[];
  isAi: boolean;
  userId: string;
  service: string;
  attributes: Record<string, string>;
  resource: ResourceContext;
  source: Source;
  /** For spans: the span name (a browser's `documentLoad` span carries the page URL). */
  spanName?: string;
}

/** A header attribute is a string array in the conventions; its text form is JSON. */
function headerValue(value: string): string {
  if (!value.startsWith("[")) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) && typeof parsed[0] === "string" ? parsed[0] : value;
  } catch {
    return value;
  }
}

/** The attributes `pageOf` reads, for readers that select them rather than whole maps. */
export const PAGE_ATTRIBUTES = ["page.path", "page.url", "url.full", "http.url"] as const;

/**
 * The page a span or log was on, as a session counts it: `page.path`, else the path of
 * `page.url` (the item's attributes first, then its resource's); a browser's `documentLoad`
 * span, which has neither, carries the page's URL itself.
 */
export function pageOf(
  attributes: Record<string, string>,
  resource: Record<string, string>,
  documentLoad: boolean,
): string {
  const both = (name: string) => firstOf(attributes, name) || firstOf(resource, name);
  return (
    pathOf(both("page.path")) ||
    pathOf(both("page.url")) ||
    (documentLoad ? pathOf(firstOf(attributes, "url.full", "http.url")) : "")
  );
}

/** What one span or log tells about its session: user agent, referrer, country and page. */
export function sessionTouch(input: TouchInput): SessionTouch {
  const a = input.attributes;
  const r = input.resource.attributes;
  const both = (first: string, second: string, third: string) =>
    firstOf(a, first, second, third) || firstOf(r, first, second, third);
  const page = pageOf(a, r, input.source === "frontend" && input.spanName === "documentLoad");
  return {
    projectId: input.projectId,
    sessionId: input.sessionId,
    timestampMs: input.timestampMs,
    kind: input.kind,
    errorKeys: input.errorKeys,
    isAi: input.isAi,
    userId: input.userId,
    service: input.service,
    userAgent: firstOf(a, "user_agent.original", "http.user_agent") || input.resource.userAgent,
    referrer: headerValue(
      both("http.request.header.referer", "page.referrer", "document.referrer"),
    ),
    country: both("client.geo.country.iso_code", "geo.country.iso_code", "country").toUpperCase(),
    page,
  };
}

export interface UserAgentInfo {
  browser: string;
  browserVersion: string;
  os: string;
  device: string;
}

const EMPTY_AGENT: UserAgentInfo = { browser: "", browserVersion: "", os: "", device: "" };

/** Parses user agents with bowser, remembering recent ones (a session repeats its agent). */
export class UserAgentParser {
  private readonly cache = new Map<string, UserAgentInfo>();

  parse(userAgent: string): UserAgentInfo {
    if (!userAgent) return EMPTY_AGENT;
    const cached = this.cache.get(userAgent);
    if (cached) return cached;
    let info = EMPTY_AGENT;
    try {
      const parsed = Bowser.parse(userAgent.slice(0, 1000));
      info = {
        browser: parsed.browser.name ?? "",
        browserVersion: parsed.browser.version ?? "",
        os: parsed.os.name ?? "",
        device: parsed.platform.type ?? "",
      };
    } catch {
      // An unparseable agent leaves the fields empty.
    }
    if (this.cache.size >= 5000) this.cache.clear();
    this.cache.set(userAgent, info);
    return info;
  }
}

const keep = (current: unknown, next: string): string =>
  typeof current === "string" && current !== "" ? current : next;

/** Folds touches into one partial `sessions` row per session; readers merge rows per session. */
export function summarizeSessions(
  touches: readonly SessionTouch[],
  agents: UserAgentParser,
): Row[] {
  const rows = new Map<string, Row>();
  const entryAt = new Map<string, number>();
  for (const t of touches) {
    const key = `${t.projectId}\u0000${t.sessionId}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        project_id: t.projectId,
        session_id: t.sessionId,
        first_seen: t.timestampMs,
        last_seen: t.timestampMs,
        span_count: 0,
        log_count: 0,
        error_count: 0,
        error_keys: [] as string[],
        ai_span_count: 0,
        user_id: "",
        services: [] as string[],
        user_agent: "",
        browser: "",
        browser_version: "",
        os: "",
        device: "",
        referrer: "",
        country: "",
        entry_page: "",
        pages: [] as string[],
      };
      rows.set(key, row);
    }
    row.first_seen = Math.min(row.first_seen as number, t.timestampMs);
    row.last_seen = Math.max(row.last_seen as number, t.timestampMs);
    if (t.kind === "span") row.span_count = (row.span_count as number) + 1;
    else row.log_count = (row.log_count as number) + 1;
    const errorKeys = row.error_keys as string[];
    for (const errorKey of t.errorKeys) {
      if (errorKeys.includes(errorKey)) continue;
      errorKeys.push(errorKey);
      row.error_count = errorKeys.length;
    }
    if (t.isAi) row.ai_span_count = (row.ai_span_count as number) + 1;
    row.user_id = keep(row.user_id, t.userId);
    const services = row.services as string[];
    if (t.service && !services.includes(t.service) && services.length < 20)
      services.push(t.service);
    if (t.userAgent && !row.user_agent) {
      const agent = agents.parse(t.userAgent);
      row.user_agent = t.userAgent.slice(0, 1000);
      row.browser = agent.browser;
      row.browser_version = agent.browserVersion;
      row.os = agent.os;
      row.device = agent.device;
    }
    row.referrer = keep(row.referrer, t.referrer);
    row.country = keep(row.country, t.country);
    if (t.page) {
      const pages = row.pages as string[];
      const entered = entryAt.get(key);
      if (entered === undefined || t.timestampMs < entered) {
        entryAt.set(key, t.timestampMs);
        row.entry_page = t.page;
      }
      if (!pages.includes(t.page) && pages.length < 100) pages.push(t.page);
    }
  }
  for (const row of rows.values()) {
    row.first_seen = millisToDateTime(row.first_seen as number);
    row.last_seen = millisToDateTime(row.last_seen as number);
  }
  return [...rows.values()];
}
