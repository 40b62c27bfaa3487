import type { ReactNode } from "react";
import { ConfirmButton } from "../../components/confirm-button";
import { ProblemMessage } from "../../components/feedback";

/**
 * The write actions of a channel or an endpoint: the buttons, then Delete (asked twice: it
 * takes the delivery log with it), what the last test said and the error of any action.
 */
export function ItemActions({
  what,
  name,
  remove,
  result,
  error,
  children,
}: {
  /** "channel", "endpoint". */
  what: string;
  name: string;
  remove: { isPending: boolean; mutate: () => void };
  result?: ReactNode;
  error: unknown;
  children: ReactNode;
}) {
  return (
    <div className="settings-action-group">
      <div className="settings-buttons">
        {children}
        <ConfirmButton
          label="Delete"
          question="Deletes it with its delivery log."
          confirmLabel={`Delete ${what}`}
          accessibleName={`Delete ${what} ${name}`}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      {result}
      {error ? <ProblemMessage error={error} /> : null}
    </div>
  );
}
