import { z } from "zod";
import type { Notification } from "../notification-payloads.js";
import { defineChannelType } from "./channel-type.js";
import { maskUrl } from "./format.js";
import { httpUrl, postJson } from "./http-post.js";

/**
 * A channel whose one setting is a secret webhook URL it POSTs a JSON message to (Slack, Teams,
 * Discord): the URL is stored encrypted, shown masked, and checked by the SSRF policy.
 */
export function webhookUrlChannel(spec: {
  label: string;
  description: string;
  /** What the URL is and where it comes from, for the form. */
  urlHelp: string;
  message(notification: Notification): unknown;
}) {
  return defineChannelType({
    label: spec.label,
    description: spec.description,
    urlSettings: ["webhookUrl"],
    config: z.object({}).strict(),
    secret: z.object({ webhookUrl: httpUrl("Webhook URL", spec.urlHelp) }).strict(),
    describe: (settings) => ({ webhookUrl: maskUrl(settings.webhookUrl) }),
    async send(notification, settings, deps) {
      const body = spec.message(notification);
      await postJson({ vendor: spec.label, url: settings.webhookUrl, body }, deps);
    },
  });
}
