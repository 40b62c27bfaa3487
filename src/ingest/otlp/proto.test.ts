import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { otlpCodec } from "./proto.js";
import { anyValueText } from "./values.js";

// Taken before any test loads the OTLP definitions.
const originalSetter = protobuf.util.oneOfSetter;

const anyValueType = () =>
  otlpCodec("traces").request.root.lookupType("opentelemetry.proto.common.v1.AnyValue");

describe("OTLP protobuf messages", () => {
  it("keeps the last member of a oneof on the wire, as protobuf specifies", () => {
    // string_value (field 1) "a", then int_value (field 3) 5; and the other way round.
    const stringThenInt = anyValueType().decode(Buffer.from([0x0a, 0x01, 0x61, 0x18, 0x05]));
    expect(Object.keys(stringThenInt)).toEqual(["intValue"]);
    expect(anyValueText(stringThenInt as never, 64)).toBe("5");
    const intThenString = anyValueType().decode(Buffer.from([0x18, 0x05, 0x0a, 0x01, 0x61]));
    expect(Object.keys(intThenString)).toEqual(["stringValue"]);
    expect(anyValueText(intThenString as never, 64)).toBe("a");
    // The oneof's name still tells the member.
    expect((intThenString as unknown as { value: string }).value).toBe("stringValue");
  });

  it("names a oneof's member without deleting members the message does not hold", () => {
    const { set } = Object.getOwnPropertyDescriptor(anyValueType().ctor.prototype, "value") ?? {};
    let deletes = 0;
    const message = new Proxy<Record<string, unknown>>(
      { intValue: 5 },
      {
        deleteProperty: (target, key) => {
          deletes++;
          return Reflect.deleteProperty(target, key);
        },
      },
    );
    set?.call(message, "stringValue");
    // Only the member it holds goes: protobufjs's own setter would delete all six others.
    expect(deletes).toBe(1);
    expect(Object.keys(message)).toEqual([]);
  });

  it("leaves protobufjs's own oneof setter to other users in the process", () => {
    anyValueType();
    expect(protobuf.util.oneOfSetter).toBe(originalSetter);
  });
});
