import type { ComponentState } from "../../../../src/contracts/status-pages";
import { STATE_LABEL } from "../../../../src/contracts/status-pages";
import { StateBadge } from "../../components/ui";

const TONE = {
  operational: "ok",
  degraded: "warn",
  down: "bad",
  maintenance: "info",
} as const satisfies Record<ComponentState, string>;

/**
 * A page's or component's state in the public page's own words (the server's one rule,
 * src/contracts/status-pages.ts), so the editor and its preview never name a state two ways.
 */
export function StatusStateBadge({ state }: { state: ComponentState }) {
  return <StateBadge state={STATE_LABEL[state]} tone={TONE[state]} />;
}
