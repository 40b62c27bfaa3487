import { expect, it } from "vitest";
import { redactUrl } from "./redact-url.js";

it("masks credentials and leaves everything else alone", () => {
  expect(redactUrl("https://user:s3cret@example.com/a?b=c@d")).toBe(
    "https://***@example.com/a?b=c@d",
  );
  expect(redactUrl("https://token@example.com/")).toBe("https://***@example.com/");
  expect(redactUrl("https://example.com/path@x")).toBe("https://example.com/path@x");
  expect(redactUrl("http://example.com")).toBe("http://example.com");
});
