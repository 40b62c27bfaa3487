import { describe, expect, it } from "vitest";
import { fingerprintError } from "./fingerprint.js";
import { annotateStack, parseFrames, typeFromStack } from "./stack-frames.js";

// Real-shaped traces: the reported exception raised in "OrderService.place" (line 77), caused by
// a lookup failing in "OrderRepository.load" (line 48), under framework frames.
const PYTHON = `Traceback (most recent call last):
  File "/srv/shop/orders/repository.py", line 48, in load
    return self.rows[order_id]
           ~~~~~~~~~^^^^^^^^^^
KeyError: 'ord_8812'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/shop/.venv/lib/python3.12/site-packages/flask/app.py", line 1473, in wsgi_app
    response = self.full_dispatch_request()
  File "/srv/shop/.venv/lib/python3.12/site-packages/flask/app.py", line 882, in full_dispatch_request
    rv = self.dispatch_request()
  File "/srv/shop/orders/views.py", line 31, in checkout
    order = service.place(cart)
  File "/srv/shop/orders/service.py", line 77, in place
    raise OrderNotFound(cart.order_id) from err
orders.errors.OrderNotFoundError: ord_8812`;

const JAVA = `java.lang.IllegalStateException: Order ord_8812 could not be placed
\tat com.acme.shop.orders.OrderService.place(OrderService.java:77)
\tat com.acme.shop.orders.OrderController.checkout(OrderController.java:31)
\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)
\tat java.base/java.lang.Thread.run(Thread.java:1583)
Caused by: java.util.NoSuchElementException: No value present
\tat java.base/java.util.Optional.orElseThrow(Optional.java:377)
\tat com.acme.shop.orders.OrderRepository.load(OrderRepository.java:48)
\tat com.acme.shop.orders.OrderService.place(OrderService.java:70)
\t... 3 more`;

const GO = `panic: runtime error: invalid memory address or nil pointer dereference [recovered]
\tpanic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x10 pc=0x6f1b2a]

goroutine 34 [running]:
net/http.(*conn).serve.func1()
\t/usr/local/go/src/net/http/server.go:1898 +0xbe
panic({0x7213a0?, 0xa3b2c0?})
\t/usr/local/go/src/runtime/panic.go:770 +0x132
github.com/acme/shop/orders.(*Service).place(0xc000118000, {0xc0001a4010, 0x8})
\t/src/shop/orders/service.go:77 +0x85
main.checkout({0x8a3e58, 0xc0001c0000}, 0xc0001b6000)
\t/src/shop/cmd/server/main.go:31 +0x11d
github.com/go-chi/chi/v5.(*Mux).routeHTTP(0xc00009e060, {0x8a3e58, 0xc0001c0000}, 0xc0001b6000)
\t/root/go/pkg/mod/github.com/go-chi/chi/v5@v5.0.12/mux.go:459 +0x2d6
net/http.HandlerFunc.ServeHTTP(0x7c5a10?, {0x8a3e58?, 0xc0001c0000?}, 0xc00017a000?)
\t/usr/local/go/src/net/http/server.go:2166 +0x29
created by net/http.(*Server).Serve in goroutine 1
\t/usr/local/go/src/net/http/server.go:3285 +0x4b4

goroutine 1 [IO wait]:
main.main()
\t/src/shop/cmd/server/main.go:12 +0x1f`;

const DOTNET = `System.InvalidOperationException: Order ord_8812 could not be placed
 ---> System.Collections.Generic.KeyNotFoundException: The given key 'ord_8812' was not present in the dictionary.
   at System.Collections.Generic.Dictionary\`2.get_Item(TKey key)
   at Acme.Shop.Orders.OrderRepository.Load(String id) in /src/Shop/Orders/OrderRepository.cs:line 48
   at Acme.Shop.Orders.OrderService.PlaceAsync(Cart cart) in /src/Shop/Orders/OrderService.cs:line 70
   --- End of inner exception stack trace ---
   at Acme.Shop.Orders.OrderService.PlaceAsync(Cart cart) in /src/Shop/Orders/OrderService.cs:line 77
   at Acme.Shop.Api.OrdersController.Checkout(CheckoutRequest request) in /src/Shop/Api/OrdersController.cs:line 31
   at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.TaskOfIActionResultExecutor.Execute(ActionContext actionContext, IActionResultTypeMapper mapper, ObjectMethodExecutor executor, Object controller, Object[] arguments)
   at Microsoft.AspNetCore.Mvc.Infrastructure.ControllerActionInvoker.<InvokeActionMethodAsync>g__Awaited|12_0(ControllerActionInvoker invoker, ValueTask\`1 actionResultValueTask)
--- End of stack trace from previous location ---
   at Microsoft.AspNetCore.Routing.EndpointMiddleware.<Invoke>g__AwaitRequestTask|7_0(Endpoint endpoint, Task requestTask, ILogger logger)`;

// Ruby's Exception#full_message (what the OpenTelemetry SDK records): the raising frame leads,
// the cause follows.
const RUBY = `/srv/shop/app/services/order_service.rb:77:in 'OrderService#place': Order ord_8812 could not be placed (OrderService::PlacementError)
\tfrom /srv/shop/app/controllers/orders_controller.rb:31:in 'OrdersController#checkout'
\tfrom /usr/local/bundle/gems/actionpack-7.2.1/lib/action_controller/metal/basic_implicit_render.rb:8:in 'ActionController::BasicImplicitRender#send_action'
\tfrom /usr/local/bundle/gems/puma-6.4.3/lib/puma/thread_pool.rb:155:in 'block in Puma::ThreadPool#spawn_thread'
/srv/shop/app/models/order_repository.rb:48:in 'Hash#fetch': key not found: "ord_8812" (KeyError)
\tfrom /srv/shop/app/models/order_repository.rb:48:in 'OrderRepository#load'
\tfrom /srv/shop/app/services/order_service.rb:70:in 'OrderService#place'`;

const RUBY_OLD = `/srv/shop/app/services/order_service.rb:77:in \`place': Order ord_8812 could not be placed (RuntimeError)
\tfrom /srv/shop/app/controllers/orders_controller.rb:31:in \`checkout'
\tfrom /usr/local/bundle/gems/actionpack-7.0.8/lib/abstract_controller/base.rb:215:in \`process_action'`;

const NODE = `Error: Order ord_8812 could not be placed
    at OrderService.place (/srv/shop/src/orders/service.js:77:11)
    at async checkout (/srv/shop/src/orders/routes.js:31:19)
    at async Object.handler (/srv/shop/node_modules/fastify/lib/handleRequest.js:154:9)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`;

const CASES = [
  { name: "Python", sdk: "python", stack: PYTHON, culprit: "orders/service.py in place" },
  {
    name: "Java",
    sdk: "java",
    stack: JAVA,
    culprit: "com.acme.shop.orders.OrderService in place",
  },
  {
    name: "Go",
    sdk: "go",
    stack: GO,
    culprit: "orders/service.go in github.com/acme/shop/orders.(*Service).place",
  },
  {
    name: ".NET",
    sdk: "dotnet",
    stack: DOTNET,
    culprit: "Acme.Shop.Orders.OrderService in PlaceAsync",
  },
  {
    name: "Ruby",
    sdk: "ruby",
    stack: RUBY,
    culprit: "services/order_service.rb in OrderService#place",
  },
  {
    name: "Ruby < 3.4",
    sdk: "ruby",
    stack: RUBY_OLD,
    culprit: "services/order_service.rb in place",
  },
  { name: "Node", sdk: "nodejs", stack: NODE, culprit: "orders/service.js in OrderService.place" },
];

/** The same code after a deploy that moved every line. */
const shiftLines = (stack: string): string =>
  stack
    .replace(
      /(line |\.(?:java|go|js|rb|cs):)(\d+)/g,
      (_, p: string, n: string) => `${p}${Number(n) + 7}`,
    )
    .replace(/(", line )(\d+)/g, (_, p: string, n: string) => `${p}${Number(n) + 7}`);

describe("stack traces per language", () => {
  for (const c of CASES) {
    it(`${c.name}: the culprit is the in-app frame that raised the exception`, () => {
      // By the trace's shape alone, and with the SDK's language.
      expect(fingerprintError("E", "m", c.stack).culprit).toBe(c.culprit);
      expect(fingerprintError("E", "m", c.stack, c.sdk).culprit).toBe(c.culprit);
    });

    it(`${c.name}: the fingerprint survives line number changes, not a different raising frame`, () => {
      const shifted = shiftLines(c.stack);
      expect(shifted).not.toBe(c.stack);
      const base = fingerprintError("E", "m", c.stack).fingerprint;
      expect(fingerprintError("E", "m", shifted).fingerprint).toBe(base);
      const elsewhere = c.stack.replace(/checkout/gi, "reorder");
      expect(fingerprintError("E", "m", elsewhere).fingerprint).not.toBe(base);
    });
  }

  it("puts Python's most recent call first and skips site-packages", () => {
    expect(parseFrames(PYTHON).map((f) => [f.file, f.fn, f.inApp])).toEqual([
      ["orders/service.py", "place", true],
      ["orders/views.py", "checkout", true],
      ["flask/app.py", "full_dispatch_request", false],
      ["flask/app.py", "wsgi_app", false],
      ["orders/repository.py", "load", true],
    ]);
  });

  it("reads only the panicking goroutine and skips the Go runtime and module cache", () => {
    expect(parseFrames(GO).map((f) => [f.fn, f.inApp])).toEqual([
      ["net/http.(*conn).serve.func", false],
      ["github.com/acme/shop/orders.(*Service).place", true],
      ["main.checkout", true],
      ["github.com/go-chi/chi/v5.(*Mux).routeHTTP", false],
      ["net/http.HandlerFunc.ServeHTTP", false],
    ]);
  });

  it("puts the thrown .NET exception's frames before its inner exception's", () => {
    expect(
      parseFrames(DOTNET)
        .filter((f) => f.inApp)
        .map((f) => `${f.file}.${f.fn}`),
    ).toEqual([
      "Acme.Shop.Orders.OrderService.PlaceAsync",
      "Acme.Shop.Api.OrdersController.Checkout",
      "Acme.Shop.Orders.OrderRepository.Load",
      "Acme.Shop.Orders.OrderService.PlaceAsync",
    ]);
  });

  it("uses the SDK's language when the trace's shape is ambiguous", () => {
    // .NET without line information reads like Java; only .NET puts inner exceptions first.
    const bare = `System.InvalidOperationException: failed
 ---> System.Collections.Generic.KeyNotFoundException: missing
   at Acme.Orders.Repository.Load(String id)
   --- End of inner exception stack trace ---
   at Acme.Orders.Service.Place(Cart cart)`;
    expect(fingerprintError("E", "m", bare, "dotnet").culprit).toBe("Acme.Orders.Service in Place");
  });

  it("reads the exception type where the runtime writes it", () => {
    expect(typeFromStack(PYTHON)).toBe("orders.errors.OrderNotFoundError");
    expect(typeFromStack(RUBY)).toBe("OrderService::PlacementError");
    expect(typeFromStack(JAVA)).toBe("java.lang.IllegalStateException");
    expect(typeFromStack(NODE)).toBe("");
    expect(typeFromStack("TypeError: x\n    at f (/a.js:1:2)")).toBe("TypeError");
  });

  it("annotates each line of a trace with the frame read from it", () => {
    const lines = annotateStack(DOTNET);
    expect(lines.map((l) => l.text).join("\n")).toBe(DOTNET);
    // The same frames as parseFrames, each on the line it was read from.
    const annotated = lines.flatMap((l) => (l.frame ? [l.frame] : []));
    expect(annotated).toHaveLength(parseFrames(DOTNET).length);
    for (const line of lines.filter((l) => l.frame))
      expect(line.text).toContain(line.frame?.fn ?? "");
    const python = annotateStack(PYTHON);
    expect(python[0]).toEqual({ text: "Traceback (most recent call last):", frame: null });
    expect(python.find((l) => l.text.includes("service.py"))?.frame).toEqual({
      file: "orders/service.py",
      fn: "place",
      inApp: true,
    });
    expect(python.find((l) => l.text.includes("flask/app.py"))?.frame?.inApp).toBe(false);
  });
});
