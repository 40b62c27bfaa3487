import { useStarDashboard } from "./dashboards-api";

/** The signed-in user's star on a dashboard: starred ones come first in the list. */
export function StarButton({
  projectId,
  id,
  starred,
  title,
}: {
  projectId: string;
  id: string;
  starred: boolean;
  /** The dashboard's title, for screen readers in a list. */
  title?: string;
}) {
  const star = useStarDashboard(projectId);
  const name = title ? ` ${title}` : "";
  return (
    <button
      type="button"
      className={`dsh-star${starred ? " starred" : ""}`}
      aria-pressed={starred}
      aria-label={starred ? `Unstar${name}` : `Star${name}`}
      title={starred ? "Starred: shown first (click to unstar)" : "Star: show it first"}
      disabled={star.isPending}
      onClick={() => star.mutate({ id, starred: !starred })}
    >
      {starred ? "★" : "☆"}
    </button>
  );
}
