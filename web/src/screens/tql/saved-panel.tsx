import { type FormEvent, useState } from "react";
import { ApiError } from "../../api/client";
import { Empty, ProblemMessage, QueryView } from "../../components/feedback";
import { Field } from "../../components/ui";
import { formatRelative } from "../../lib/format";
import { type SavedQueryView, useDeleteSavedQuery, useSavedQueries, useSaveQuery } from "./tql-api";

/** Whether the error is about one field (then Field shows it beside that field). */
export const namesField = (error: unknown, field: string): boolean =>
  error instanceof ApiError && error.fieldError(field) !== undefined;

/** One saved query: load it; members may rename it or delete it (after a confirmation). */
function SavedItem({
  projectId,
  saved,
  current,
  writable,
  onLoad,
  onDeleted,
}: {
  projectId: string;
  saved: SavedQueryView;
  current: boolean;
  writable: boolean;
  onLoad: (saved: SavedQueryView) => void;
  onDeleted: (saved: SavedQueryView) => void;
}) {
  const [mode, setMode] = useState<"view" | "rename" | "delete">("view");
  const [name, setName] = useState(saved.name);
  const rename = useSaveQuery(projectId);
  const remove = useDeleteSavedQuery(projectId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate({ id: saved.id, input: { name } }, { onSuccess: () => setMode("view") });
  };

  if (mode === "rename")
    return (
      <li className="tql-saved-item">
        <form onSubmit={submit} aria-label={`Rename ${saved.name}`}>
          <Field label="New name" name="name" error={rename.error}>
            {(props) => (
              <input
                {...props}
                value={name}
                maxLength={100}
                required
                // biome-ignore lint/a11y/noAutofocus: the form opens on request; typing goes to its only field.
                autoFocus
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          {rename.isError && !namesField(rename.error, "name") && (
            <ProblemMessage error={rename.error} />
          )}
          <div className="tql-row-actions">
            <button type="submit" className="button small primary" disabled={rename.isPending}>
              {rename.isPending ? "Renaming…" : "Rename"}
            </button>
            <button
              type="button"
              className="button small"
              onClick={() => {
                rename.reset();
                setName(saved.name);
                setMode("view");
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      </li>
    );

  return (
    <li className={`tql-saved-item${current ? " current" : ""}`}>
      <button
        type="button"
        className="tql-load"
        onClick={() => onLoad(saved)}
        aria-current={current ? "true" : undefined}
      >
        <strong>{saved.name}</strong>
        {saved.description && <span className="muted small">{saved.description}</span>}
        <code className="tql-snippet">{saved.query}</code>
        <span className="muted small">Updated {formatRelative(saved.updatedAt)}</span>
      </button>
      {writable && mode === "view" && (
        <div className="tql-row-actions">
          <button type="button" className="button small" onClick={() => setMode("rename")}>
            Rename<span className="visually-hidden"> {saved.name}</span>
          </button>
          <button type="button" className="button small danger" onClick={() => setMode("delete")}>
            Delete<span className="visually-hidden"> {saved.name}</span>
          </button>
        </div>
      )}
      {writable && mode === "delete" && (
        <div className="tql-row-actions">
          <span className="small">Delete “{saved.name}”?</span>
          <button
            type="button"
            className="button small danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate(saved.id, { onSuccess: () => onDeleted(saved) })}
          >
            {remove.isPending ? "Deleting…" : "Yes, delete"}
          </button>
          <button type="button" className="button small" onClick={() => setMode("view")}>
            Keep it
          </button>
        </div>
      )}
      {remove.isError && <ProblemMessage error={remove.error} />}
    </li>
  );
}

/** The project's saved queries, by name. */
export function SavedPanel({
  projectId,
  currentId,
  writable,
  onLoad,
  onDeleted,
}: {
  projectId: string;
  currentId: string;
  writable: boolean;
  onLoad: (saved: SavedQueryView) => void;
  onDeleted: (saved: SavedQueryView) => void;
}) {
  const saved = useSavedQueries(projectId);
  return (
    <QueryView
      query={saved}
      isEmpty={(list) => list.length === 0}
      empty={
        <Empty title="No saved queries yet">
          {writable
            ? "Save the query in the editor to find it here again and share it with your team."
            : "Members of your organization save queries here."}
        </Empty>
      }
    >
      {(list) => (
        <ul className="tql-list" aria-label="Saved queries">
          {list.map((item) => (
            <SavedItem
              key={item.id}
              projectId={projectId}
              saved={item}
              current={item.id === currentId}
              writable={writable}
              onLoad={onLoad}
              onDeleted={onDeleted}
            />
          ))}
        </ul>
      )}
    </QueryView>
  );
}
