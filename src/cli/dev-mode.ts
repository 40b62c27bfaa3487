import { DEV_SETTINGS } from "../config/environment.js";

/**
 * The banner `vigil serve --dev` prints before anything else, so nobody runs it in production
 * without seeing what it relaxes.
 */
export function devModeBanner(): string {
  const rule = "!".repeat(78);
  return [
    rule,
    "!! LOCAL DEVELOPMENT MODE (vigil serve --dev): NOT FOR PRODUCTION",
    "!! It relaxes these safeguards, for trying Vigil against services on this machine:",
    ...DEV_SETTINGS.map((s) => `!!   - ${s.relaxes} (${s.variable}=true)`),
    "!! Anyone who can create a monitor or a webhook can make this server call your",
    "!! internal network. Start without --dev (as `npm start` does) anywhere else.",
    rule,
    "",
  ].join("\n");
}
