import { type FormEvent, useState } from "react";
import { ProblemMessage } from "../../components/feedback";
import { TextField } from "../../components/text-field";
import { Drawer, Field } from "../../components/ui";
import { namesField } from "./saved-panel";
import { type SavedQueryView, useSaveQuery } from "./tql-api";

/** Saves the editor's query as a new saved query: a name (unique in the project) and a note. */
export function SaveDrawer({
  projectId,
  query,
  onClose,
  onSaved,
}: {
  projectId: string;
  query: string;
  onClose: () => void;
  onSaved: (saved: SavedQueryView) => void;
}) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const save = useSaveQuery(projectId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ input: { name, description, query } }, { onSuccess: onSaved });
  };
  const shown =
    save.isError && !namesField(save.error, "name") && !namesField(save.error, "description");
  return (
    <Drawer title="Save query" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <TextField
          label="Name"
          name="name"
          error={save.error}
          hint="Unique in this project"
          value={name}
          maxLength={100}
          required
          onChange={setName}
        />
        <Field label="Description" name="description" error={save.error} hint="Optional">
          {(props) => (
            <textarea
              {...props}
              value={description}
              maxLength={1000}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </Field>
        <div className="field">
          <span className="tql-field-label">Query</span>
          <pre className="tql-save-preview">{query}</pre>
        </div>
        {shown && <ProblemMessage error={save.error} />}
        <div className="tql-row-actions">
          <button type="submit" className="button primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save query"}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Drawer>
  );
}
