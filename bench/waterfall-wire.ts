import { brotliCompressSync, constants as zlibConstants } from "node:zlib";
import { DYNAMIC_BROTLI_QUALITY, DYNAMIC_GZIP_LEVEL } from "../src/server/plugins/compression.js";
import { compressionCosts, cpuMsPer, getWire, wireSizes } from "./harness/wire-bytes.js";
import type { BigTrace } from "./waterfall-trace.js";

/** Issue 37: the 50,000-span waterfall's answer on the wire is at most this share of its raw size. */
export const TARGET_WIRE_SHARE = 0.15;
const RUNS = Number(process.env.BENCH_WATERFALL_WIRE_RUNS ?? 5);

interface Reader {
  baseUrl: string;
  projectId: string;
  owner: { cookie: string };
}

/** Process CPU (server and client, both in this process) per GET of `url` as `encoding`. */
async function requestCpuMs(url: string, cookie: string, encoding: string): Promise<number> {
  const headers = { cookie, "accept-encoding": encoding };
  await getWire(url, headers);
  const before = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) await getWire(url, headers);
  const used = process.cpuUsage(before);
  return Math.round(((used.user + used.system) / 1000 / RUNS) * 10) / 10;
}

const brQ4 = (text: string) =>
  brotliCompressSync(Buffer.from(text), {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY },
  }).length;

/**
 * Where the compressed bytes go: each column of `spans` alone, raw and as br (span ids are
 * random 64-bit values and times microseconds: what no encoder can take out).
 */
function byColumn(body: Buffer) {
  const answer = JSON.parse(body.toString()) as { spans: Record<string, unknown[]> };
  const rows = Object.entries(answer.spans).map(([name, values]) => {
    const text = JSON.stringify(values);
    return { column: name, raw: Buffer.byteLength(text), br: brQ4(text) };
  });
  const rest = JSON.stringify({ ...answer, spans: undefined });
  rows.push({ column: "(everything else)", raw: Buffer.byteLength(rest), br: brQ4(rest) });
  return rows;
}

/**
 * The waterfall's verb (the columns; the nested tree of the same trace is 24 MB and takes
 * seconds to build, so it is left out) as each encoding: bytes on the wire and their share of the raw JSON,
 * the CPU compressing the body costs at each quality (the server's br q4 / gzip 6 marked), and
 * the whole request's CPU as br, gzip and identity, one after the other.
 */
export async function wireFigures(reader: Reader, trace: BigTrace) {
  const url = `${reader.baseUrl}/api/projects/${reader.projectId}/v1/traces/${trace.traceId}`;
  const headers = { cookie: reader.owner.cookie };
  const spans = await wireSizes(`${url}/spans`, headers);
  const body = Buffer.from(
    await (
      await fetch(`${url}/spans`, { headers: { ...headers, "accept-encoding": "identity" } })
    ).arrayBuffer(),
  );
  const costs = compressionCosts(body, RUNS, {
    br: DYNAMIC_BROTLI_QUALITY,
    gzip: DYNAMIC_GZIP_LEVEL,
  });
  const request = {
    identity: await requestCpuMs(`${url}/spans`, reader.owner.cookie, "identity"),
    br: await requestCpuMs(`${url}/spans`, reader.owner.cookie, "br"),
    gzip: await requestCpuMs(`${url}/spans`, reader.owner.cookie, "gzip"),
  };
  const parse = cpuMsPer(RUNS, () => JSON.parse(body.toString()));
  const columns = byColumn(body);
  return {
    spans,
    costs,
    requestCpuMs: request,
    clientJsonParseCpuMs: parse,
    columns,
    figure: spans.brShare,
    baseline: 1,
    target: TARGET_WIRE_SHARE,
    met: spans.brShare <= TARGET_WIRE_SHARE && spans.gzipShare <= TARGET_WIRE_SHARE,
  };
}
export type WireFigures = Awaited<ReturnType<typeof wireFigures>>;
