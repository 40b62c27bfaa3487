import { mkdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

/**
 * The baseline server: reads the file from disk for every request and sends it as is, or its
 * precompressed `.br` / `.gz` twin when the client accepts it (as nginx's brotli_static and
 * gzip_static do).
 */
export async function startStaticServer(
  files: Record<string, { path: string; contentType: string }>,
) {
  const server: Server = createServer((req, res) => {
    const file = files[req.url ?? ""];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : "";
    const path =
      encoding === "br" ? `${file.path}.br` : encoding === "gzip" ? `${file.path}.gz` : file.path;
    readFile(path).then(
      (body) => {
        res.writeHead(200, {
          "content-type": file.contentType,
          "content-length": body.length,
          "cache-control": "public, max-age=30",
          ...(encoding ? { "content-encoding": encoding, vary: "accept-encoding" } : {}),
        });
        res.end(body);
      },
      () => res.writeHead(500).end(),
    );
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The baseline's files: the exact bytes the service answered, and their precompressed twins. */
export async function serveStaticCopies(dataDir: string, html: Buffer, v1Json: Buffer) {
  const staticDir = join(dataDir, "static");
  mkdirSync(staticDir);
  for (const [name, body] of [
    ["status.html", html],
    ["data.json", v1Json],
  ] as const) {
    writeFileSync(join(staticDir, name), body);
    writeFileSync(join(staticDir, `${name}.br`), brotliCompressSync(body));
    writeFileSync(join(staticDir, `${name}.gz`), gzipSync(body));
  }
  const staticServer = await startStaticServer({
    "/status.html": {
      path: join(staticDir, "status.html"),
      contentType: "text/html; charset=utf-8",
    },
    "/data.json": {
      path: join(staticDir, "data.json"),
      contentType: "application/json; charset=utf-8",
    },
  });
  return staticServer;
}
