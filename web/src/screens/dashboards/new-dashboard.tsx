import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { FormProblem, ProblemMessage } from "../../components/feedback";
import { Field } from "../../components/ui";
import { useProject } from "../project-context";
import { useCreateDashboard, useImportDashboard } from "./dashboards-api";

/** "New dashboard": a title, then the empty dashboard opens in edit mode. */
export function NewDashboard({ onCancel }: { onCancel: () => void }) {
  const { projectId } = useProject();
  const create = useCreateDashboard(projectId);
  const [, navigate] = useLocation();
  const [title, setTitle] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ title }, { onSuccess: (view) => navigate(`/${view.id}/edit`) });
  };
  return (
    <form className="card dsh-form" onSubmit={submit} aria-label="New dashboard">
      <Field label="Title" name="title" error={create.error}>
        {(props) => (
          <input
            {...props}
            value={title}
            maxLength={200}
            required
            // biome-ignore lint/a11y/noAutofocus: the form opens on the user's request, to type in.
            autoFocus
            onChange={(e) => setTitle(e.target.value)}
          />
        )}
      </Field>
      <FormProblem error={create.error} fields={["title"]} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create and edit"}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * "Import": an exported dashboard's JSON, from a file or pasted. The server checks it; its
 * problem names the field at fault (`panels.2.type`, `schemaVersion`), shown under the text.
 */
export function ImportDashboard({ onCancel }: { onCancel: () => void }) {
  const { projectId } = useProject();
  const upload = useImportDashboard(projectId);
  const [, navigate] = useLocation();
  const [text, setText] = useState("");
  const [readError, setReadError] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    upload.mutate(text, { onSuccess: (view) => navigate(`/${view.id}`) });
  };
  return (
    <form className="card dsh-form" onSubmit={submit} aria-label="Import a dashboard">
      <Field label="File" hint="A dashboard exported from Vigil (.json)">
        {(props) => (
          <input
            {...props}
            type="file"
            accept="application/json,.json"
            onChange={(e) => {
              const file = e.target.files?.[0];
              setReadError("");
              file
                ?.text()
                .then(setText)
                .catch(() => setReadError("The file could not be read."));
            }}
          />
        )}
      </Field>
      {readError && <p className="field-error">{readError}</p>}
      <Field label="Or paste its JSON">
        {(props) => (
          <textarea
            {...props}
            className="mono"
            rows={8}
            value={text}
            spellCheck={false}
            placeholder='{ "schemaVersion": 1, "title": "…", "panels": [ … ] }'
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      {upload.error !== null && <ProblemMessage error={upload.error} title="Not imported" />}
      <div className="actions">
        <button
          type="submit"
          className="button primary"
          disabled={upload.isPending || !text.trim()}
        >
          {upload.isPending ? "Importing…" : "Import"}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
