import type { MonitorView } from "../../../../src/contracts/monitors";
import { ApiError } from "../../api/client";
import type { Draft } from "./draft";

/** What the form gives a kind's own fields. */
export interface KindFieldsProps {
  draft: Draft;
  update: (change: (draft: Draft) => Draft) => void;
  /** The last save's problem: each field shows the server's message for its name. */
  error: unknown;
  /** Forgets that problem (rows moved: its paths no longer point at the same rows). */
  resetError: () => void;
  /** The monitor being edited (absent for a new one). */
  monitor?: MonitorView | undefined;
}

/** The slots of the draft that hold one kind's own fields. */
type Slot = "tcp" | "dns" | "tls" | "heartbeat";

/** A setter for one slot's fields: `set({ host })` changes only the host of `draft.tcp`. */
export const slotSetter =
  <S extends Slot>(update: KindFieldsProps["update"], slot: S) =>
  (change: Partial<Draft[S]>) =>
    update((d) => ({ ...d, [slot]: { ...d[slot], ...change } }));

/** The server's message for exactly this field (or, with `exact`, not one of its children). */
export function fieldMessage(error: unknown, field: string, exact = false): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.problem.errors?.find(
    (e) => e.field === field || (!exact && e.field.startsWith(`${field}.`)),
  )?.message;
}
