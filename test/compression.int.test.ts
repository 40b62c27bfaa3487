import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_COMPRESS_BYTES } from "../src/server/plugins/compression.js";
import { addKey } from "./helpers/projects.js";
import { type Session, startWithRoles } from "./helpers/roles.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import type { TestService } from "./helpers/test-service.js";

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they crossed the wire (fetch would have inflated them). */
  wire: Buffer;
  /** The body once its Content-Encoding is undone. */
  body: Buffer;
}

function decode(encoding: string | undefined, wire: Buffer): Buffer {
  if (encoding === "br") return brotliDecompressSync(wire);
  if (encoding === "gzip") return gunzipSync(wire);
  if (encoding === undefined || encoding === "identity") return wire;
  throw new Error(`unexpected content-encoding ${encoding}`);
}

/** A request over node:http, which leaves the body as sent. */
function raw(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const wire = Buffer.concat(chunks);
        const encoding = response.headers["content-encoding"];
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          wire,
          body: decode(encoding, wire),
        });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

const varies = (a: Answer) =>
  String(a.headers.vary ?? "")
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes("accept-encoding");

/**
 * Answers are compressed as the client's Accept-Encoding asks (br, else gzip), only from
 * MIN_COMPRESS_BYTES up, with Vary: Accept-Encoding, and the bytes inflate to the identity body:
 * for answers built per request (JSON, HTML, plain text) and for those kept per build (the
 * public status page and its JSON).
 */
describe("compressed answers", () => {
  const dir = makeTempDir();
  let service: TestService;
  let owner: Session;
  let key: string;
  let cookie: Record<string, string>;

  beforeAll(async () => {
    let orgId: string;
    let projectId: string;
    ({ service, owner, orgId, projectId } = await startWithRoles(dir.path, {
      VIGIL_MONITORS_ENABLED: "false",
      VIGIL_ALERTS_ENABLED: "false",
    }));
    key = await addKey(service, projectId, { name: "reader", role: "full" });
    const created = await owner.post(`/api/orgs/${orgId}/status-pages`, {
      slug: "acme",
      title: "Acme",
      description: "Live status of Acme's services",
    });
    expect(created.status).toBe(201);
    cookie = { cookie: owner.cookie };
  });

  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });

  const url = (path: string) => `${service.url}${path}`;

  /** The same path asked three ways: br, gzip, nothing. */
  async function threeWays(path: string, headers: Record<string, string> = {}) {
    const br = await raw(url(path), { ...headers, "accept-encoding": "gzip, deflate, br" });
    const gzip = await raw(url(path), { ...headers, "accept-encoding": "gzip" });
    const identity = await raw(url(path), headers);
    return { br, gzip, identity };
  }

  it.each([
    ["the OpenAPI document (JSON built per request)", "/openapi.json", "none"],
    ["a session API answer (JSON)", "/api/channel-types", "session"],
    ["/metrics (plain text)", "/metrics", "none"],
    ["the public status page (HTML kept per build)", "/status/acme", "none"],
  ] as const)("%s: br, gzip or identity as asked, with Vary", async (_name, path, auth) => {
    const { br, gzip, identity } = await threeWays(path, auth === "session" ? cookie : {});
    for (const answer of [br, gzip, identity]) {
      expect(answer.status).toBe(200);
      expect(varies(answer), path).toBe(true);
    }
    expect(identity.body.length).toBeGreaterThanOrEqual(MIN_COMPRESS_BYTES);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    // /metrics moves between requests (the request counters): compare its stable first line.
    const same = (a: Buffer) =>
      path === "/metrics" ? a.toString().split("\n")[0] : a.toString("base64");
    expect(same(br.body)).toBe(same(identity.body));
    expect(same(gzip.body)).toBe(same(identity.body));
    expect(br.wire.length).toBeLessThan(identity.wire.length / 2);
    expect(gzip.wire.length).toBeLessThan(identity.wire.length / 2);
    if (br.headers["content-length"] !== undefined)
      expect(Number(br.headers["content-length"])).toBe(br.wire.length);
  });

  it("a /v1 answer read with an API key is compressed too", async () => {
    const { br, identity } = await threeWays("/v1/status-pages/acme/data", { "x-api-key": key });
    expect(br.status).toBe(200);
    if (identity.body.length >= MIN_COMPRESS_BYTES)
      expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(br.body.toString())).toEqual(JSON.parse(identity.body.toString()));
  });

  it("leaves small bodies as they are, whatever the client accepts", async () => {
    for (const path of ["/healthz", "/api/auth/me"]) {
      const answer = await raw(url(path), { ...cookie, "accept-encoding": "br, gzip" });
      expect(answer.status, path).toBe(200);
      expect(answer.wire.length, path).toBeLessThan(MIN_COMPRESS_BYTES);
      expect(answer.headers["content-encoding"], path).toBeUndefined();
      expect(JSON.parse(answer.body.toString())).toBeTruthy();
    }
    // A problem answer (404) is small too.
    const missing = await raw(url("/status/nope"), { "accept-encoding": "br" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBeUndefined();
  });

  it("honours q=0 and unknown encodings: identity when nothing acceptable is offered", async () => {
    const refused = await raw(url("/openapi.json"), { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    const gzipOnly = await raw(url("/openapi.json"), { "accept-encoding": "br;q=0, gzip" });
    expect(gzipOnly.headers["content-encoding"]).toBe("gzip");
    const unknown = await raw(url("/openapi.json"), { "accept-encoding": "compress" });
    expect(unknown.headers["content-encoding"]).toBeUndefined();
    expect(unknown.body.equals(refused.body)).toBe(true);
  });

  it("keeps a status page's ETag per encoding and answers 304 to it", async () => {
    const first = await raw(url("/status/acme"), { "accept-encoding": "br" });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/-br"$/);
    const again = await raw(url("/status/acme"), {
      "accept-encoding": "br",
      "if-none-match": etag,
    });
    expect(again.status).toBe(304);
    expect(again.wire.length).toBe(0);
  });

  it("still reads gzip OTLP bodies itself and answers them", async () => {
    const body = gzipSync(Buffer.from(JSON.stringify({ resourceSpans: [] })));
    const answer = await raw(
      url("/v1/traces"),
      {
        "x-api-key": key,
        "content-type": "application/json",
        "content-encoding": "gzip",
        "accept-encoding": "br, gzip",
      },
      "POST",
      body,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toEqual({});
  });
});
