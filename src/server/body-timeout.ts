import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import { hasBody } from "./connection-limits.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Bodies that may take up to the request timeout (OTLP batches on slow links), not the body timeout. */
    largeBody?: boolean;
  }
}

/** Why a body was cut; the error handler answers it as a 408 problem. */
class BodyTimeoutError extends Error {
  readonly statusCode = 408;
}

/**
 * Gives a request's body `seconds` to arrive once its headers are in. A slower one is answered
 * 408 and its connection closed; routes with `config.largeBody` keep only the request timeout.
 */
export function useBodyTimeout(app: FastifyInstance, seconds: number): void {
  app.addHook("preParsing", async (request, reply, payload) => {
    if (!hasBody(request.headers) || request.routeOptions.config.largeBody) return payload;
    const body = new PassThrough();
    payload.once("error", (error: Error) => body.destroy(error));
    payload.pipe(body);
    const timer = setTimeout(() => {
      payload.unpipe(body);
      // The rest of the body would be read as the next request: the connection ends with this one.
      reply.header("connection", "close");
      body.destroy(new BodyTimeoutError(`The request body did not arrive within ${seconds} s`));
    }, seconds * 1000);
    const clear = () => clearTimeout(timer);
    body.once("end", clear);
    body.once("close", clear);
    reply.raw.once("close", clear);
    return body;
  });
}
