import { z } from "zod";
import { defineChannelType } from "./channel-type.js";
import { emailMessage } from "./email-templates.js";

export { emailMessage } from "./email-templates.js";

const Address = z.string().trim().pipe(z.email("must be a valid email address"));

/** Emails the notification to 1–20 addresses through the server's SMTP transport. */
export const emailChannel = defineChannelType({
  label: "Email",
  description: "Emails each notification to a list of addresses through the server's SMTP server.",
  config: z
    .object({
      to: z
        .array(Address, { error: "must be a list of email addresses" })
        .min(1, "needs at least one address")
        .max(20, "allows at most 20 addresses")
        .meta({ title: "Recipients", description: "1 to 20 email addresses" }),
    })
    .strict(),
  secret: z.object({}).strict(),
  unavailable: (deps) => (deps.mailer ? undefined : "email channels need SMTP: set VIGIL_SMTP_URL"),
  describe: (settings) => ({ to: settings.to }),
  async send(notification, settings, deps) {
    if (!deps.mailer) throw new Error("SMTP is not configured on this server (VIGIL_SMTP_URL)");
    await deps.mailer.send(emailMessage(notification, settings.to));
  },
});
