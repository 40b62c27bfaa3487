import { connect, type Socket } from "node:net";
import { startDeadline } from "../../lib/http/deadline.js";
import { classifyTransportError, type TransportError } from "../../lib/http/transport-error.js";
import type { AssertionResult, CheckResult } from "../check-result.js";
import type { TcpDefinition } from "../definition.js";
import type { CheckRunDeps } from "./check-run-deps.js";
import type { MonitorKind } from "./monitor-kind.js";
import {
  CheckFailure,
  checked,
  keptText,
  oneStepResult,
  resolveGuarded,
  since,
  timeoutMessage,
  whenReady,
} from "./one-step.js";
import { hostPort, privateHostIssue } from "./targets.js";

// tcp (docs/monitor-kinds.md#tcp): connect to host:port within the timeout through the SSRF
// policy; optionally send a text, and expect one in what the server sends back.

export const tcpKind: MonitorKind<TcpDefinition> = {
  scheduled: true,
  target: (definition) => `tcp://${hostPort(definition.host, definition.port)}`,
  privateTargets: (definition, allowSetting) =>
    privateHostIssue("host", definition.host, allowSetting),
  run: runTcp,
};

/** Opens a socket to an address, failing with the deadline. */
function open(address: string, port: number, signal: AbortSignal): Promise<Socket> {
  return whenReady(connect({ host: address, port }), "connect", signal);
}

/** Writes the text and ends the connection, resolving once it was handed to the system. */
function flushed(socket: Socket, text: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    socket.end(text, () => {
      signal.removeEventListener("abort", abort);
      resolve();
    });
  });
}

/**
 * Reads until `expect` appears, the server closes, `maxBytes` were read or the deadline passes;
 * resolves with what was received and how reading ended.
 */
function readUntil(
  socket: Socket,
  expect: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ received: string; ended: "found" | "closed" | "limit" | "deadline" }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const text = () => Buffer.concat(chunks).toString("utf8");
    const finish = (ended: "found" | "closed" | "limit" | "deadline") => {
      socket.removeAllListeners("data");
      signal.removeEventListener("abort", onAbort);
      resolve({ received: text(), ended });
    };
    const onAbort = () => finish("deadline");
    if (signal.aborted) return finish("deadline");
    signal.addEventListener("abort", onAbort, { once: true });
    socket.on("data", (chunk: Buffer) => {
      const room = maxBytes - size;
      chunks.push(chunk.subarray(0, room));
      size += Math.min(chunk.length, room);
      if (text().includes(expect)) finish("found");
      else if (size >= maxBytes) finish("limit");
    });
    socket.once("end", () => finish("closed"));
    socket.once("close", () => finish("closed"));
    socket.once("error", () => finish("closed"));
  });
}

async function runTcp(
  definition: TcpDefinition,
  deps: CheckRunDeps,
  signal: AbortSignal,
): Promise<CheckResult> {
  const startedAt = deps.clock.now().toISOString();
  const started = performance.now();
  const timeoutMs = definition.timeoutSeconds * 1000;
  const target = `tcp://${hostPort(definition.host, definition.port)}`;
  const deadline = startDeadline(timeoutMs, signal, {
    timeout: () => new CheckFailure("timeout", timeoutMessage(timeoutMs)),
    cancel: () => new CheckFailure("aborted", "the check was cancelled"),
  });
  const assertions: AssertionResult[] = [];
  let transportError: TransportError | null = null;
  let responseBody: string | null = null;
  let responseBodyTruncated = false;
  let socket: Socket | undefined;
  try {
    const { address } = await Promise.race([
      resolveGuarded(definition.host, deps),
      new Promise<never>((_, reject) => {
        if (deadline.signal.aborted) reject(deadline.signal.reason);
        deadline.signal.addEventListener("abort", () => reject(deadline.signal.reason), {
          once: true,
        });
      }),
    ]);
    socket = await open(address, definition.port, deadline.signal);
    const connectMs = since(started);
    assertions.push(
      checked("connect", "equals", "connected", "connected", true, `connected in ${connectMs} ms`),
    );
    if (definition.send !== undefined && definition.expect === undefined)
      // Nothing to read: the text is flushed before the connection is closed.
      await flushed(socket, definition.send, deadline.signal);
    else if (definition.send !== undefined) socket.write(definition.send);
    if (definition.expect !== undefined) {
      const { received, ended } = await readUntil(
        socket,
        definition.expect,
        deps.maxResponseBytes,
        deadline.signal,
      );
      const found = ended === "found";
      const why = {
        found: `received ${JSON.stringify(definition.expect)}`,
        closed: "the server closed the connection before sending it",
        limit: `not in the first ${deps.maxResponseBytes} bytes received`,
        deadline: deadline.cancelled
          ? "the check was cancelled"
          : `not received within ${timeoutMessage(timeoutMs).replace("timed out after ", "")}`,
      }[ended];
      const kept = keptText(received, deps.storedBodyBytes);
      responseBody = received === "" ? null : kept.text;
      responseBodyTruncated = kept.truncated;
      assertions.push(
        checked(
          "received",
          "contains",
          definition.expect,
          received === "" ? null : kept.text.slice(0, 200),
          found,
          why,
        ),
      );
      if (deadline.cancelled)
        transportError = { code: "aborted", message: "the check was cancelled" };
    }
  } catch (error) {
    transportError =
      error instanceof CheckFailure
        ? { code: error.code, message: error.message }
        : classifyTransportError(error);
    assertions.push(checked("connect", "equals", "connected", null, false, transportError.message));
  } finally {
    socket?.destroy();
    deadline.dispose();
  }
  return oneStepResult(
    {
      name: "Connect",
      method: "TCP",
      url: target,
      startedAt,
      durationMs: since(started),
      transportError,
      assertions,
      responseBody,
      responseBodyTruncated,
    },
    deps,
  );
}
