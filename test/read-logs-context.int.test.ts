import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogContext } from "../src/contracts/logs.js";
import { RECORDS, type RecordName, startLogExplore } from "./helpers/log-explore.js";
import { makeTempDir } from "./helpers/temp-dir.js";

type Explore = Awaited<ReturnType<typeof startLogExplore>>;

/** A record's surroundings: the same service and instance, oldest first, the record marked. */
describe("GET /v1/logs/:logId/context", () => {
  const dir = makeTempDir();
  let x: Explore;

  beforeAll(async () => {
    x = await startLogExplore(dir.path);
    expect(Object.keys(x.idOf)).toHaveLength(Object.keys(RECORDS).length);
  });
  afterAll(async () => {
    await x?.service.stop();
    dir.remove();
  });

  const context = async (name: RecordName, query = "") => {
    const { status, body } = await x.get<LogContext>(`/v1/logs/${x.idOf[name]}/context?${query}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  /** The records' names, the current one starred. */
  const shown = (body: LogContext) =>
    x.names(body.data).map((name, i) => (body.data[i]?.current ? `*${name}` : name));

  it("lists the same instance's records around the record, oldest first, the record marked", async () => {
    const body = await context("a3");
    expect(shown(body)).toEqual(["a1", "a2", "*a3", "a4"]);
    expect(body).toMatchObject({
      logId: x.idOf.a3,
      service: "api",
      instance: { field: "resource.service.instance.id", value: "api-1" },
      hasBefore: false,
      hasAfter: false,
    });
    expect(body.data[2]).toMatchObject({
      id: x.idOf.a3,
      level: "error",
      message: RECORDS.a3.body,
      timestamp: new Date(RECORDS.a3.timeMs).toISOString(),
    });
    // The other instance of the same service on the same host is another emitter.
    expect(shown(await context("b2"))).toEqual(["b1", "*b2"]);
  });

  it("falls back to the host, then to the service alone", async () => {
    const web = await context("w1");
    expect(shown(web)).toEqual(["*w1", "w2"]);
    expect(web.instance).toEqual({ field: "resource.host.name", value: "w1" });
    const worker = await context("k2");
    expect(shown(worker)).toEqual(["k1", "*k2"]);
    expect(worker.instance).toBeNull();
  });

  it("takes before and after, and says whether there is more either side", async () => {
    const one = await context("a3", "before=1&after=1");
    expect(shown(one)).toEqual(["a2", "*a3", "a4"]);
    expect(one).toMatchObject({ hasBefore: true, hasAfter: false });
    const alone = await context("a2", "before=0&after=0");
    expect(shown(alone)).toEqual(["*a2"]);
    expect(alone).toMatchObject({ hasBefore: true, hasAfter: true });
    expect(shown(await context("a1", "after=2"))).toEqual(["*a1", "a2", "a3"]);
    expect(shown(await context("a4", "before=200&after=200"))).toEqual(["a1", "a2", "a3", "*a4"]);
  });

  it("answers 400 naming the parameter, 404 for unknown ids and other projects' records", async () => {
    const path = `/v1/logs/${x.idOf.a3}/context`;
    expect(await x.badFields(`${path}?before=201`)).toEqual(["before"]);
    expect(await x.badFields(`${path}?after=-1`)).toEqual(["after"]);
    expect(await x.badFields(`${path}?after=ten`)).toEqual(["after"]);
    expect(await x.badFields(`${path}?around=5`)).toEqual(["around"]);
    expect((await x.get("/v1/logs/not-a-log/context")).status).toBe(404);
    expect((await x.get(`/v1/logs/${x.idOf.a3.slice(0, -1)}0/context`)).status).toBe(404);
    expect((await x.get(path, x.otherKey)).status).toBe(404);
    // The other project's record in the same service and instance never shows here.
    const foreign = await x.get<{ data: { id: string }[] }>("/v1/logs", x.otherKey);
    const theirs = foreign.body.data[0]?.id ?? "";
    const around = await x.get<LogContext>(`/v1/logs/${theirs}/context`, x.otherKey);
    expect(around.body.data.map((r) => r.message)).toEqual(["payment failed elsewhere"]);
  });
});
