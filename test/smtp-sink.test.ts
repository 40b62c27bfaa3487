import { afterAll, describe, expect, it } from "vitest";
import { createSmtpMailer } from "../src/notifications/channels/mailer.js";
import { linksIn, useSmtpSink } from "./helpers/smtp-sink.js";

// The shared SMTP test sink reads what nodemailer writes: encoded subjects, quoted-printable and
// base64 bodies, multipart/alternative text and HTML.

const sink = useSmtpSink();
let mailer: ReturnType<typeof createSmtpMailer>;
afterAll(() => mailer?.close());

describe("smtp sink", () => {
  it("receives nodemailer's mail and decodes its subject, text and HTML", async () => {
    mailer = createSmtpMailer({ url: sink.url, from: "Vigil <alerts@vigil.test>" });
    const long = `Straße ✓ ${"word ".repeat(40)}end`;
    await mailer?.send({
      to: ["Ops@Example.com", "b@example.com"],
      subject: "[Vigil] Checkout — is down ✓ ünïcödé",
      text: `${long}\nAcknowledge: https://vigil.test/ack/abc?x=1&y=2\nLast = line`,
      html: `<p>${long}</p><a href="https://vigil.test/ack/abc?x=1&amp;y=2">Acknowledge</a>`,
    });
    const mail = await sink.waitFor((m) => m.recipients.includes("ops@example.com"), 5000);
    expect(mail.subject).toBe("[Vigil] Checkout — is down ✓ ünïcödé");
    expect(mail.recipients).toEqual(["ops@example.com", "b@example.com"]);
    expect(mail.to).toEqual(["ops@example.com", "b@example.com"]);
    expect(mail.from).toContain("alerts@vigil.test");
    expect(mail.envelopeFrom).toBe("alerts@vigil.test");
    expect(mail.text).toBe(`${long}\nAcknowledge: https://vigil.test/ack/abc?x=1&y=2\nLast = line`);
    expect(mail.html).toContain(`<p>${long}</p>`);
    expect(mail.headers["content-type"]).toContain("multipart/alternative");
    expect(linksIn(mail)).toEqual(["https://vigil.test/ack/abc?x=1&y=2"]);
    expect(sink.to("b@example.com")).toHaveLength(1);
  });

  it("reads base64 bodies (mostly non-ASCII text) and times out naming what arrived", async () => {
    await mailer?.send({
      to: ["c@example.com"],
      subject: "ping",
      text: "ÄÖÜ€€€€€€€€€€€€€€€€€€ ✓✓✓✓✓✓✓✓✓✓✓✓",
      html: "<b>日本語のテキスト</b>",
    });
    const mail = await sink.waitFor((m) => m.subject === "ping");
    expect(mail.text).toBe("ÄÖÜ€€€€€€€€€€€€€€€€€€ ✓✓✓✓✓✓✓✓✓✓✓✓");
    expect(mail.html).toBe("<b>日本語のテキスト</b>");
    await expect(sink.waitFor((m) => m.subject === "never", 100)).rejects.toThrow(
      /no matching email within 100 ms; received 2/,
    );
    sink.clear();
    expect(sink.messages).toHaveLength(0);
  });
});
