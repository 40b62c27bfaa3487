import { describe, expect, it } from "vitest";
import { refusedDataCode } from "../../ingest/insert-errors.js";
import { UnavailableError } from "../../lib/domain-errors.js";
import { classifyEngineError } from "../../tql/engine-errors.js";
import {
  ClickHouseServerError,
  displayUrl,
  responseError,
  transportError,
} from "./clickhouse-errors.js";

const URL_SHOWN = "http://ch:8123";

describe("ClickHouse server errors", () => {
  it("keeps the server's text as chDB words it, without the version", () => {
    const error = responseError(
      URL_SHOWN,
      500,
      "Code: 43. DB::Exception: Illegal type String of argument of function plus: In scope SELECT 'a' + 1. (ILLEGAL_TYPE_OF_ARGUMENT) (version 25.3.2.39 (official build))\n",
      "43",
    );
    expect(error).toBeInstanceOf(ClickHouseServerError);
    expect(error.message).toBe(
      "Code: 43. DB::Exception: Illegal type String of argument of function plus: In scope SELECT 'a' + 1. (ILLEGAL_TYPE_OF_ARGUMENT)",
    );
    expect((error as ClickHouseServerError).errorCode).toBe(43);
    const context = { projectId: "prj_a1", database: "vigil", maxExecutionSeconds: 30 };
    expect(classifyEngineError(error, context)?.message).toBe(
      "Illegal type String of argument of function plus (ILLEGAL_TYPE_OF_ARGUMENT)",
    );
  });

  it("keeps a message whose text holds parentheses in capitals whole", () => {
    const text =
      "Code: 6. DB::Exception: Cannot parse string 'NULL (NULL)' as UInt64. (CANNOT_PARSE_TEXT) (version 24.8.1.1)";
    const error = responseError(URL_SHOWN, 400, text, undefined);
    expect(error.message).toBe(
      "Code: 6. DB::Exception: Cannot parse string 'NULL (NULL)' as UInt64. (CANNOT_PARSE_TEXT)",
    );
    expect(refusedDataCode(error)).toBe("CANNOT_PARSE_TEXT");
  });

  it("makes credentials, overload and unreachable shards UnavailableError", () => {
    for (const code of [516, 202, 279, 242]) {
      const error = responseError(
        URL_SHOWN,
        500,
        `Code: ${code}. DB::Exception: x. (X_Y_Z)`,
        undefined,
      );
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error.message).toMatch(
        /^The telemetry store at http:\/\/ch:8123 cannot serve this now: /,
      );
      expect((error as UnavailableError).retryAfterSeconds).toBe(5);
    }
  });

  it("makes an answer that is not ClickHouse's (a proxy's 502) UnavailableError", () => {
    const error = responseError(URL_SHOWN, 502, "<html>Bad Gateway</html>", undefined);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toBe(
      "The telemetry store at http://ch:8123 answered HTTP 502 without a ClickHouse error; retry later",
    );
  });
});

describe("transport failures", () => {
  it("name the server and the reason", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:8123"), {
      code: "ECONNREFUSED",
    });
    expect(transportError(URL_SHOWN, refused).message).toBe(
      "The telemetry store at http://ch:8123 could not be reached (ECONNREFUSED); retry later",
    );
    expect(transportError(URL_SHOWN, new Error("Timeout error.")).message).toBe(
      "The telemetry store at http://ch:8123 could not be reached (no answer in time); retry later",
    );
  });

  it("show a URL without credentials or query", () => {
    expect(displayUrl("https://u:secret@ch.internal:8443/?x=1")).toBe("https://ch.internal:8443");
    expect(displayUrl("not a url")).toBe("the configured URL");
  });
});
