import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import { type ParsedMail, parseMail } from "./mime-message.js";

// A local SMTP server for the tests: what Vigil emails (notifications, invitations, status page
// subscriptions) is received on 127.0.0.1, parsed, and kept for the test to read. No TLS, no
// authentication. Give Vigil `sink.url` as VIGIL_SMTP_URL.

/** One email the sink received. */
export interface ReceivedMail extends ParsedMail {
  /** The envelope's recipients (RCPT TO), lowercased: who it was really sent to. */
  recipients: string[];
  /** The envelope's sender (MAIL FROM). */
  envelopeFrom: string;
  /** The message as received (CRLF line ends). */
  raw: string;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>?ignoreTLS=true`: the VIGIL_SMTP_URL that sends here. */
  url: string;
  port: number;
  /** Every message received so far, in arrival order. */
  messages: ReceivedMail[];
  /**
   * The first message (received already or arriving within `timeoutMs`) that matches; rejects
   * after the timeout, listing the subjects received.
   */
  waitFor(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Messages sent to an address (envelope recipients), in arrival order. */
  to(address: string): ReceivedMail[];
  /** Forgets the messages received so far. */
  clear(): void;
  close(): Promise<void>;
}

/**
 * Starts a sink on 127.0.0.1 and an ephemeral port. `into` is the array to collect into, for a
 * harness whose tests hold the array before the sink starts.
 */
export async function startSmtpSink(options: { into?: ReceivedMail[] } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = options.into ?? [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // Notification batches may arrive over a few connections at once.
    maxClients: 50,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          ...parseMail(raw),
          recipients: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          envelopeFrom: mailFrom ? mailFrom.address : "",
          raw,
        });
        for (const wake of [...waiters]) wake();
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as AddressInfo).port));
  });

  const waitFor: SmtpSink["waitFor"] = (predicate = () => true, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = messages.find(predicate);
        if (!found) return false;
        done();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        done();
        const subjects = messages.map((m) => `${m.recipients.join(",")}: ${m.subject}`);
        reject(
          new Error(
            `no matching email within ${timeoutMs} ms; received ${messages.length}` +
              (subjects.length ? `:\n  ${subjects.join("\n  ")}` : ""),
          ),
        );
      }, timeoutMs);
      const wake = () => {
        check();
      };
      const done = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
      check();
    });

  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    port,
    messages,
    waitFor,
    to: (address) => messages.filter((m) => m.recipients.includes(address.toLowerCase())),
    clear: () => {
      messages.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A sink for the file's tests: started before them, closed after. Its fields are read inside
 * tests (the URL is set once beforeAll ran).
 */
export function useSmtpSink(): SmtpSink {
  let sink: SmtpSink | undefined;
  const current = (): SmtpSink => {
    if (!sink) throw new Error("the SMTP sink starts in beforeAll: read it inside a test or hook");
    return sink;
  };
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink?.close();
  });
  return {
    get url() {
      return current().url;
    },
    get port() {
      return current().port;
    },
    get messages() {
      return current().messages;
    },
    waitFor: (predicate, timeoutMs) => current().waitFor(predicate, timeoutMs),
    to: (address) => current().to(address),
    clear: () => current().clear(),
    close: () => current().close(),
  };
}

/** The absolute links in a mail's text body (http and https), in order. */
export function linksIn(mail: Pick<ParsedMail, "text" | "html">): string[] {
  const text = `${mail.text}\n${mail.html.replace(/&amp;/g, "&")}`;
  const links = [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);
  return [...new Set(links)];
}
