import { isIP } from "node:net";
import { connect, type PeerCertificate, type TLSSocket } from "node:tls";
import { startDeadline } from "../../lib/http/deadline.js";
import { classifyTransportError, type TransportError } from "../../lib/http/transport-error.js";
import type { AssertionResult, CheckResult } from "../check-result.js";
import type { TlsDefinition } from "../definition.js";
import type { CheckRunDeps } from "./check-run-deps.js";
import type { MonitorKind } from "./monitor-kind.js";
import {
  CheckFailure,
  checked,
  oneStepResult,
  resolveGuarded,
  since,
  timeoutMessage,
  whenReady,
} from "./one-step.js";
import { hostPort, privateHostIssue } from "./targets.js";
import { certificateSummary, detailsOf } from "./tls-details.js";

// tls (docs/monitor-kinds.md#tls): a TLS handshake with host:port through the SSRF policy, then
// four verdicts on the certificate — the chain is trusted (system CAs, or `ca`), it names the
// host (or `servername`), and it is valid for at least `minDaysLeft` more days.

export const tlsKind: MonitorKind<TlsDefinition> = {
  scheduled: true,
  target: (definition) => `tls://${hostPort(definition.host, definition.port)}`,
  privateTargets: (definition, allowSetting) =>
    privateHostIssue("host", definition.host, allowSetting),
  run: runTls,
};

/** Handshakes without rejecting anything: every verdict is made on the certificate afterwards. */
function handshake(
  options: {
    address: string;
    port: number;
    servername: string | undefined;
    ca: string | undefined;
  },
  signal: AbortSignal,
): Promise<TLSSocket> {
  const socket = connect({
    host: options.address,
    port: options.port,
    ...(options.servername === undefined ? {} : { servername: options.servername }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
    rejectUnauthorized: false,
    // The hostname is judged with the certificate's other verdicts, not by the handshake.
    checkServerIdentity: () => undefined,
  });
  return whenReady(socket, "secureConnect", signal);
}

/** The assertions on a certificate the handshake presented. */
function verdicts(
  certificate: PeerCertificate,
  socket: TLSSocket,
  definition: TlsDefinition,
  hostname: string,
  now: Date,
): { assertions: AssertionResult[]; details: ReturnType<typeof detailsOf> } {
  const details = detailsOf(certificate, {
    hostname,
    now,
    authorized: socket.authorized,
    authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
  });
  const protocol = socket.getProtocol() ?? "TLS";
  const enough = details.daysLeft >= definition.minDaysLeft;
  const assertions = [
    checked(
      "tls_handshake",
      "equals",
      "completed",
      protocol,
      true,
      `${protocol} handshake completed`,
    ),
    checked(
      "tls_chain",
      "equals",
      "trusted",
      details.authorized ? "trusted" : details.authorizationError,
      details.authorized,
      details.authorized
        ? `issued by ${details.issuer}, trusted by ${definition.ca ? "the given CA" : "the system's CAs"}`
        : `the chain is not trusted: ${details.authorizationError ?? "unknown reason"}`,
    ),
    checked(
      "tls_hostname",
      "equals",
      hostname,
      certificate.subjectaltname ?? details.subject,
      details.hostnameMatches,
      details.hostnameMatches
        ? `the certificate names ${hostname}`
        : `the certificate does not name ${hostname} (${certificate.subjectaltname ?? `CN=${details.subject}`})`,
    ),
    checked(
      "tls_days_left",
      "at_least",
      String(definition.minDaysLeft),
      String(details.daysLeft),
      enough,
      details.daysLeft < 0
        ? `expired ${-details.daysLeft} day(s) ago (${details.validTo})`
        : `${details.daysLeft} day(s) left (until ${details.validTo})${enough ? "" : `; at least ${definition.minDaysLeft} required`}`,
    ),
  ];
  return { assertions, details };
}

async function runTls(
  definition: TlsDefinition,
  deps: CheckRunDeps,
  signal: AbortSignal,
): Promise<CheckResult> {
  const startedAt = deps.clock.now().toISOString();
  const started = performance.now();
  const timeoutMs = definition.timeoutSeconds * 1000;
  const target = `tls://${hostPort(definition.host, definition.port)}`;
  // The name sent as SNI and matched: servername, else the host (SNI carries no IP address).
  const hostname = definition.servername ?? definition.host;
  const sni = isIP(hostname) ? undefined : hostname;
  const deadline = startDeadline(timeoutMs, signal, {
    timeout: () => new CheckFailure("timeout", timeoutMessage(timeoutMs)),
    cancel: () => new CheckFailure("aborted", "the check was cancelled"),
  });
  let assertions: AssertionResult[] = [];
  let transportError: TransportError | null = null;
  let responseBody: string | null = null;
  let tls: ReturnType<typeof detailsOf> | null = null;
  let socket: TLSSocket | undefined;
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
    socket = await handshake(
      { address, port: definition.port, servername: sni, ca: definition.ca },
      deadline.signal,
    );
    const certificate = socket.getPeerCertificate();
    if (!certificate || Object.keys(certificate).length === 0)
      throw new CheckFailure("tls", "TLS error: the server presented no certificate");
    const judged = verdicts(certificate, socket, definition, hostname, deps.clock.now());
    assertions = judged.assertions;
    tls = judged.details;
    responseBody = certificateSummary(certificate);
  } catch (error) {
    transportError =
      error instanceof CheckFailure
        ? { code: error.code, message: error.message }
        : classifyTransportError(error);
    assertions = [
      checked("tls_handshake", "equals", "completed", null, false, transportError.message),
    ];
  } finally {
    socket?.destroy();
    deadline.dispose();
  }
  return oneStepResult(
    {
      name: "Certificate",
      method: "TLS",
      url: target,
      startedAt,
      durationMs: since(started),
      transportError,
      assertions,
      responseBody,
      tls,
    },
    deps,
  );
}
