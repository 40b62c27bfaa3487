import type { FastifyInstance, FastifyReply } from "fastify";

/** Browsers take every response as the type it is declared as, never a sniffed one. */
export const noSniff = (reply: FastifyReply): FastifyReply =>
  reply.header("x-content-type-options", "nosniff");

/** Sets `X-Content-Type-Options: nosniff` on every response of the app, errors and 404s included. */
export function useSecurityHeaders(app: FastifyInstance): void {
  app.addHook("onRequest", async (_request, reply) => {
    noSniff(reply);
  });
}
