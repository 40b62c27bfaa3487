import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { DomainError } from "../../lib/domain-errors.js";
import { STATUS_BY_CODE, sendProblem } from "../problem.js";

/** Maps every thrown error to problem+json: domain errors by code, request validation to 400 naming the field. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DomainError | Error, request, reply) => {
    if (error instanceof DomainError) {
      if (error.retryAfterSeconds !== undefined)
        reply.header("retry-after", error.retryAfterSeconds);
      return sendProblem(request, reply, {
        status: STATUS_BY_CODE[error.code],
        code: error.code,
        detail: error.message,
        errors: error.issues,
        extensions: error.extensions,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? "request";
      const issues = error.validation.flatMap((v) => {
        const path = v.instancePath.replace(/^\//, "").replaceAll("/", ".");
        // An unknown key is named itself, not the object holding it (`levle`, not `querystring`).
        const unknown = v.keyword === "unrecognized_keys" ? v.params.keys : undefined;
        if (Array.isArray(unknown))
          return unknown.map((key) => ({
            field: [path, String(key)].filter(Boolean).join("."),
            message: `is not a known ${where === "querystring" ? "parameter" : "field"}`,
          }));
        return [{ field: path || where, message: v.message ?? "is invalid" }];
      });
      const detail = issues.map((i) => `${i.field}: ${i.message}`).join("; ");
      return sendProblem(request, reply, {
        status: 400,
        detail: `Invalid ${where}: ${detail}`,
        errors: issues,
      });
    }
    const status =
      "statusCode" in error && typeof error.statusCode === "number" ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return sendProblem(request, reply, {
        status: 500,
        detail: "An unexpected error occurred; see the server log for this request id",
      });
    }
    return sendProblem(request, reply, { status, detail: error.message });
  });

  registerNotFound(app);
}

/** Unknown routes answer a problem+json 404; a scope calls this to run its own hooks first. */
export function registerNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, {
      status: 404,
      detail: `No route for ${request.method} ${request.url.split("?")[0]}`,
    }),
  );
}
