import { request as httpRequest } from "node:http";
import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";

// Bytes on the wire (issue 37): what an answer weighs as each encoding the client may ask for,
// and the CPU its compression costs, measured apart from the request's other work.

export type WireEncoding = "identity" | "br" | "gzip";
export const WIRE_ENCODINGS: readonly WireEncoding[] = ["identity", "br", "gzip"];

interface WireAnswer {
  status: number;
  encoding: string;
  bytes: number;
  ms: number;
}

/** One GET over node:http (which leaves the body as sent), with Accept-Encoding as given. */
export function getWire(url: string, headers: Record<string, string>): Promise<WireAnswer> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    // A connection of its own: no reuse of a kept-alive socket the server may be closing.
    httpRequest(url, { headers, agent: false }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          encoding: String(response.headers["content-encoding"] ?? "identity"),
          bytes,
          ms: performance.now() - t0,
        }),
      );
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

/** The bytes of `url` as each encoding (identity first), checked to be the one asked for. */
export async function wireSizes(url: string, headers: Record<string, string> = {}) {
  const sizes = {} as Record<WireEncoding, number>;
  for (const encoding of WIRE_ENCODINGS) {
    const answer = await getWire(url, { ...headers, "accept-encoding": encoding });
    if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status}`);
    if (answer.encoding !== encoding)
      throw new Error(`GET ${url} asked ${encoding}, answered ${answer.encoding}`);
    sizes[encoding] = answer.bytes;
  }
  return {
    ...sizes,
    brShare: round3(sizes.br / sizes.identity),
    gzipShare: round3(sizes.gzip / sizes.identity),
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** CPU ms per call of `fn`, over `runs` calls (user + system time of this process). */
export function cpuMsPer(runs: number, fn: () => unknown): number {
  fn();
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) fn();
  const used = process.cpuUsage(before);
  return round3((used.user + used.system) / 1000 / runs);
}

const brotli = (quality: number) => (body: Buffer) =>
  brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: quality } });
const gzip = (level: number) => (body: Buffer) => gzipSync(body, { level });

/**
 * What compressing `body` costs and gives at the qualities a server might pick: bytes and CPU
 * ms per response; `used` names the ones the server picks for it (e.g. "br q4", "gzip 6").
 */
export function compressionCosts(body: Buffer, runs: number, used: { br: number; gzip: number }) {
  const cases: [string, (b: Buffer) => Buffer][] = [
    ["br q1", brotli(1)],
    ["br q4", brotli(4)],
    ["br q5", brotli(5)],
    ["br q6", brotli(6)],
    ["br q9", brotli(9)],
    ["gzip 1", gzip(1)],
    ["gzip 6", gzip(6)],
    ["gzip 9", gzip(9)],
  ];
  const table = cases.map(([name, fn]) => ({
    name,
    bytes: fn(body).length,
    share: round3(fn(body).length / body.length),
    cpuMs: cpuMsPer(runs, () => fn(body)),
  }));
  return {
    identityBytes: body.length,
    used: { br: `br q${used.br}`, gzip: `gzip ${used.gzip}` },
    table,
  };
}
