import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { sendProblem } from "../../problem.js";

/** Where `npm run build` writes the dashboard (web/ built by Vite), from src/ or dist/ alike. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL("../../../../dist/web", import.meta.url));

/** Client-side routes of the single-page app: each answers with its index.html. */
export const DASHBOARD_PATHS = ["/", "/signin", "/projects", "/projects/*", "/invite/*"] as const;
/** Client routes whose path holds a secret (an invitation's token): never written to the request log. */
const SECRET_PATHS: ReadonlySet<string> = new Set(["/invite/*"]);

/**
 * The dashboard's document may load only its own scripts, styles and data. Styles allow inline
 * rules: CodeMirror and uPlot set element styles at run time. Only our own pages may frame it.
 */
const DOCUMENT_HEADERS = {
  "cache-control": "no-cache",
  "content-security-policy": [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "frame-src 'self'",
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
} as const;

/**
 * Serves the built dashboard: hashed assets under /assets/ for a year (immutable, precompressed
 * twins when the client accepts them), and index.html for every client route, revalidated on
 * each load so a new release is picked up at once. Without a build, those routes say how to
 * make one instead of a bare 404.
 */
export async function dashboardRoutes(app: FastifyInstance, webDir: string): Promise<void> {
  const built = existsSync(join(webDir, "index.html"));
  if (built) {
    await app.register(fastifyStatic, {
      root: join(webDir, "assets"),
      prefix: "/assets/",
      preCompressed: true,
      immutable: true,
      maxAge: "365d",
      index: false,
      wildcard: true,
      schemaHide: true,
    });
  }
  const sendIndex = (reply: FastifyReply) => {
    reply.headers(DOCUMENT_HEADERS);
    return reply.sendFile("index.html", webDir, { cacheControl: false });
  };
  for (const url of DASHBOARD_PATHS) {
    const config = { secretPath: SECRET_PATHS.has(url) };
    app.get(url, { schema: { hide: true }, config }, async (request, reply) => {
      if (!built) {
        return sendProblem(request, reply, {
          status: 503,
          detail: `The dashboard is not built (no ${join(webDir, "index.html")}): run \`npm run build\``,
        });
      }
      return sendIndex(reply);
    });
  }
}
