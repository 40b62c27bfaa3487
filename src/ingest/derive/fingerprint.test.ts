import { describe, expect, it } from "vitest";
import { fingerprintError, normalizeMessage } from "./fingerprint.js";
import { parseFrames } from "./stack-frames.js";

const nodeStack = (
  line: number,
  file = "/srv/app/src/orders/service.ts",
) => `TypeError: Cannot read properties of undefined (reading 'total')
    at computeTotals (/srv/app/src/orders/totals.ts:${line}:17)
    at OrdersService.create (${file}:88:12)
    at async Router.handle (/srv/app/node_modules/fastify/lib/route.js:512:9)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`;

describe("error fingerprints", () => {
  it("groups one exception thrown from many requests with different ids in the message", () => {
    const messages = [
      "Order ord_8812 not found for user 3f2c9d1e-1b7a-4c8e-9a2f-0d6b5e4c3a21",
      "Order ord_1093 not found for user 7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
      "Order ord_0042 not found for user 00000000-1111-4222-8333-444444444444",
    ];
    const withStack = new Set(
      messages.map((m) => fingerprintError("NotFoundError", m, nodeStack(42)).fingerprint),
    );
    const withoutStack = new Set(
      messages.map((m) => fingerprintError("NotFoundError", m, "").fingerprint),
    );
    expect(withStack.size).toBe(1);
    expect(withoutStack.size).toBe(1);
  });

  it("does not split a group when line numbers change", () => {
    expect(fingerprintError("TypeError", "x", nodeStack(42)).fingerprint).toBe(
      fingerprintError("TypeError", "x", nodeStack(57)).fingerprint,
    );
  });

  it("separates different exception types and different in-app frames", () => {
    const base = fingerprintError("TypeError", "x", nodeStack(42)).fingerprint;
    expect(fingerprintError("RangeError", "x", nodeStack(42)).fingerprint).not.toBe(base);
    expect(
      fingerprintError("TypeError", "x", nodeStack(42, "/srv/app/src/billing/invoice.ts"))
        .fingerprint,
    ).not.toBe(base);
  });

  it("ignores third-party and runtime frames when in-app frames exist", () => {
    const a = nodeStack(42);
    const b = a.replace("route.js:512:9", "route.js:600:1").replace("fastify/lib", "fastify/dist");
    expect(fingerprintError("TypeError", "x", a).fingerprint).toBe(
      fingerprintError("TypeError", "x", b).fingerprint,
    );
    expect(fingerprintError("TypeError", "x", a).culprit).toBe("orders/totals.ts in computeTotals");
  });

  it("parses the frames of the common runtimes", () => {
    const python = `Traceback (most recent call last):
  File "/app/shop/views.py", line 31, in checkout
    total = cart.total()
  File "/usr/lib/python3.12/site-packages/django/core.py", line 10, in handle
ValueError: bad`;
    expect(parseFrames(python).map((f) => [f.file, f.fn, f.inApp])).toEqual([
      ["django/core.py", "handle", false],
      ["shop/views.py", "checkout", true],
    ]);
    const java = `java.lang.IllegalStateException: boom
\tat com.acme.orders.OrderService.create(OrderService.java:42)
\tat java.base/java.lang.Thread.run(Thread.java:833)`;
    expect(parseFrames(java)[0]).toEqual({
      file: "com.acme.orders.OrderService",
      fn: "create",
      inApp: true,
    });
    const go = `goroutine 1 [running]:
main.handleOrder(0xc000010000)
\t/home/app/orders/handler.go:27 +0x1d
runtime.main()
\t/usr/local/go/src/runtime/proc.go:250 +0x1c`;
    expect(parseFrames(go).map((f) => [f.fn, f.inApp])).toEqual([
      ["main.handleOrder", true],
      ["runtime.main", false],
    ]);
    expect(parseFrames("render@https://shop.example/assets/app.3f9a2c1b.js:1:2045")[0]).toEqual({
      file: "assets/app.<hash>.js",
      fn: "render",
      inApp: true,
    });
  });

  it("replaces ids, numbers, uuids, hex, emails, urls and ips in messages", () => {
    expect(
      normalizeMessage(
        "User ann@example.com (id 42, key usr_01HX9K2M3N) at 10.0.0.7:5432 called https://api.example.com/v1/x?y=1 with 0xdeadbeef and 5f2a9c3e7b1d and 9c1d2e3f-0a1b-4c2d-8e3f-4a5b6c7d8e9f",
      ),
    ).toBe(
      "User <email> (id <num>, key <id>) at <ip> called <url> with <hex> and <hex> and <uuid>",
    );
  });
});
