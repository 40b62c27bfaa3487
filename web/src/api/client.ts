import type { Page, Problem } from "../../../src/contracts/pagination";

/**
 * A problem+json body as every Vigil API answers errors (docs/design.md §4): the server's
 * Problem, of which a problem made up here (no answer, a proxy's page) has only status and detail.
 */
export type ApiProblem = Pick<Problem, "status" | "detail"> &
  Partial<Omit<Problem, "status" | "detail">>;

/** A failed API call, carrying the server's problem (detail and the fields it names). */
export class ApiError extends Error {
  constructor(readonly problem: ApiProblem) {
    super(problem.detail);
    this.name = "ApiError";
  }
  get status(): number {
    return this.problem.status;
  }
  /** The message the server gave for one input field, for showing beside that field. */
  fieldError(field: string): string | undefined {
    return this.problem.errors?.find((e) => e.field === field || e.field.startsWith(`${field}.`))
      ?.message;
  }
}

/** Every list the API returns: `{ data, pagination }` (docs/design.md §4), paged as the server pages. */
export type ListPage<T> = Page<T>;

/** Fired when the session is gone (a 401): the app goes back to the sign-in screen. */
export const SIGNED_OUT_EVENT = "vigil:signed-out";

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null | readonly string[]>;
  signal?: AbortSignal;
}

/** The query string of `query`: empty values are left out, arrays repeat their key. */
export function toQueryString(query: RequestOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Calls the service with the session cookie. The browser sends `Origin` on writes, which the
 * server's CSRF rule checks. Errors become ApiError with the server's problem, or a problem
 * made up here when the answer is not one (a proxy's HTML page, a network failure).
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const init: RequestInit = {
    method: options.method ?? "GET",
    credentials: "same-origin",
    headers: { accept: "application/json" },
  };
  if (options.signal) init.signal = options.signal;
  if (options.body !== undefined) {
    init.headers = { ...init.headers, "content-type": "application/json" };
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path + toQueryString(options.query), init);
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError({ status: 0, detail: "The service cannot be reached. Is it running?" });
  }
  if (response.status === 401) window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
  if (response.status === 204) return undefined as T;
  const type = response.headers.get("content-type") ?? "";
  const body: unknown = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const problem =
      typeof body === "object" && body !== null && "detail" in body
        ? (body as ApiProblem)
        : { status: response.status, detail: `${response.status} ${response.statusText}` };
    throw new ApiError(problem);
  }
  return body as T;
}

/** A /v1 read verb of one project, through the session (`/api/projects/:id/v1/…`). */
export const v1 = (projectId: string, path: string): string =>
  `/api/projects/${encodeURIComponent(projectId)}/v1${path}`;

/** A management verb of one project (`/api/projects/:id/…`). */
export const projectApi = (projectId: string, path = ""): string =>
  `/api/projects/${encodeURIComponent(projectId)}${path}`;

/** A management verb of one organization (`/api/orgs/:id/…`). */
export const orgApi = (orgId: string, path = ""): string =>
  `/api/orgs/${encodeURIComponent(orgId)}${path}`;

/** The message to show for any thrown value. */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
