/** The codes a domain error can carry; the HTTP layer maps each to exactly one status. */
export type ErrorCode =
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "query_timeout"
  | "query_limit_exceeded"
  | "rate_limited"
  | "unavailable"
  | "internal";

/** One problem with one named field of the input. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** Base of every expected failure a domain verb can raise. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly issues: readonly FieldIssue[];
  /** For rate_limited and unavailable: when the client may try again (Retry-After). */
  readonly retryAfterSeconds: number | undefined;
  /** Extra members of the problem document, e.g. a TQL error's `position`. */
  readonly extensions: Readonly<Record<string, unknown>> = {};

  constructor(
    code: ErrorCode,
    message: string,
    issues: readonly FieldIssue[] = [],
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.issues = issues;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class InvalidInputError extends DomainError {
  constructor(message: string, issues: readonly FieldIssue[] = []) {
    super("invalid_input", message, issues);
  }

  static forField(field: string, message: string): InvalidInputError {
    return new InvalidInputError(`${field}: ${message}`, [{ field, message }]);
  }

  /** One error naming every issue, each as `field: message`. */
  static forIssues(issues: readonly FieldIssue[]): InvalidInputError {
    return new InvalidInputError(issues.map((i) => `${i.field}: ${i.message}`).join("; "), issues);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = "Authentication required") {
    super("unauthorized", message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = "You do not have permission for this resource") {
    super("forbidden", message);
  }
}

export class NotFoundError extends DomainError {
  constructor(resource: string, id: string) {
    super("not_found", `${resource} '${id}' was not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, issues: readonly FieldIssue[] = []) {
    super("conflict", message, issues);
  }
}

export class UnavailableError extends DomainError {
  constructor(message: string, retryAfterSeconds?: number) {
    super("unavailable", message, [], retryAfterSeconds);
  }
}

/** Too much at once from one caller; retry after the given number of seconds (429 + Retry-After). */
export class RateLimitedError extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super("rate_limited", message, [], retryAfterSeconds);
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  constructor(message: string) {
    super("unsupported_media_type", message);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(message: string) {
    super("payload_too_large", message);
  }
}
