import { createTransport } from "nodemailer";
import type { Mailer } from "./channel-type.js";

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; nodemailer options may follow as query parameters. */
  url?: string | undefined;
  /** The From address. */
  from: string;
}

// Bounded so a dead mail server fails a delivery in seconds, not minutes (nodemailer's defaults).
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** An SMTP mailer from the `smtp` config section; undefined when no SMTP URL is configured. */
export function createSmtpMailer(smtp: SmtpSettings): Mailer | undefined {
  if (!smtp.url) return undefined;
  const transport = createTransport({ url: smtp.url, ...TIMEOUTS });
  return {
    async send(message) {
      try {
        await transport.sendMail({
          from: smtp.from,
          to: [...message.to],
          // Header folding is nodemailer's; line breaks in a subject would still start new headers.
          subject: message.subject.replace(/[\r\n]+/g, " "),
          text: message.text,
          html: message.html,
          ...(message.headers ? { headers: { ...message.headers } } : {}),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`SMTP delivery failed: ${reason}`);
      }
    },
    close: () => transport.close(),
  };
}
