import { type FormEvent, useId, useRef, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import type { SavedView, SavedViewKind } from "../../../src/contracts/saved-views";
import { canWrite } from "../api/session";
import { useDismiss } from "../lib/dismiss";
import { useProject } from "../screens/project-context";
import { ConfirmButton } from "./confirm-button";
import { Empty, FormProblem, QueryView } from "./feedback";
import { useDeleteView, useSavedViews, useSaveView } from "./saved-views-api";
import { CopyButton, Field } from "./ui";
import "./saved-views.css";

const LABELS: Record<SavedViewKind, string> = {
  logs: "logs",
  traces: "traces",
  metrics: "metrics",
  services: "services",
  query: "query",
};

/** Where the browser is: the path and query string a saved view keeps (its filters are there). */
const here = (): string => `${window.location.pathname}${window.location.search}`;

/** Saves the current location under a name (members and above). */
function SaveForm({ kind, projectId }: { kind: SavedViewKind; projectId: string }) {
  const [name, setName] = useState("");
  const save = useSaveView(projectId, kind);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { input: { name, kind, url: here() } },
      {
        onSuccess: () => {
          setName("");
          save.reset();
        },
      },
    );
  };
  return (
    <form className="saved-views-save" onSubmit={submit} aria-label="Save this view">
      <Field label="Save this view as" name="name" error={save.error}>
        {(props) => (
          <input
            {...props}
            value={name}
            maxLength={100}
            required
            placeholder="Checkout errors"
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button small primary" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save"}
      </button>
      <FormProblem error={save.error} fields={["name"]} />
    </form>
  );
}

/** One saved view: open it, copy its link; members may point it here or delete it. */
function ViewItem({
  view,
  current,
  writable,
  onOpen,
}: {
  view: SavedView;
  current: boolean;
  writable: boolean;
  onOpen: () => void;
}) {
  const update = useSaveView(view.projectId, view.kind);
  const remove = useDeleteView(view.projectId, view.kind);
  return (
    <li className={current ? "current" : undefined}>
      <Link href={`~${view.url}`} onClick={onOpen} aria-current={current ? "page" : undefined}>
        {view.name}
      </Link>
      <span className="saved-views-actions">
        <CopyButton text={`${window.location.origin}${view.url}`} label="Copy link" />
        {writable && !current && (
          <button
            type="button"
            className="button small"
            disabled={update.isPending}
            title="Keep this view's name for what is on screen now"
            onClick={() => update.mutate({ id: view.id, input: { url: here() } })}
          >
            Update<span className="visually-hidden"> {view.name} to this view</span>
          </button>
        )}
        {writable && (
          <ConfirmButton
            label="Delete"
            question={`Delete the saved view “${view.name}”?`}
            accessibleName={`Delete saved view ${view.name}`}
            pending={remove.isPending}
            onConfirm={() => remove.mutate(view.id)}
          />
        )}
      </span>
      <FormProblem error={update.error ?? remove.error} fields={[]} />
    </li>
  );
}

/**
 * The project's saved views of one explorer, in its header: save what is on screen (the URL
 * carries the explorer's filters) under a name, open one, copy its link, delete it. Viewers
 * open and share; members and above save and delete.
 */
export function SavedViews({ kind }: { kind: SavedViewKind }) {
  const { projectId, role } = useProject();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const panelId = useId();
  useDismiss(open, root, () => setOpen(false));
  // Subscribed so the current view follows navigation (the location itself is read whole).
  useLocation();
  useSearch();
  const views = useSavedViews(projectId, kind);
  const location = here();
  const current = views.data?.find((v) => v.url === location);
  const writable = canWrite(role);
  return (
    <div className="saved-views" ref={root}>
      <button
        type="button"
        className="button small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
      >
        {current ? `View: ${current.name}` : "Saved views"}
        <span aria-hidden="true"> ▾</span>
      </button>
      {open && (
        <section
          id={panelId}
          className="saved-views-panel"
          aria-label={`Saved ${LABELS[kind]} views`}
        >
          {writable && <SaveForm kind={kind} projectId={projectId} />}
          <QueryView
            query={views}
            isEmpty={(list) => list.length === 0}
            empty={
              <Empty title="No saved views yet">
                {writable
                  ? "Filter the view, then save it here under a name."
                  : "Members of the project can save views here."}
              </Empty>
            }
          >
            {(list) => (
              <ul className="saved-views-list">
                {list.map((view) => (
                  <ViewItem
                    key={view.id}
                    view={view}
                    current={view.url === location}
                    writable={writable}
                    onOpen={() => setOpen(false)}
                  />
                ))}
              </ul>
            )}
          </QueryView>
        </section>
      )}
    </div>
  );
}
