import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import type { Me } from "../../../src/contracts/auth";
import type { ProjectView } from "../../../src/contracts/projects";
import { api } from "../api/client";
import { canManage, PROJECTS_KEY, useMe, useProjects } from "../api/session";
import { Empty, ProblemMessage, QueryView } from "../components/feedback";
import { TextField } from "../components/text-field";
import { Field, PageHeader } from "../components/ui";
import { projectPath } from "../lib/project-path";

/** Every project of the user's organizations, and a form to create one (owners and admins). */
export function ProjectsScreen() {
  const me = useMe();
  const projects = useProjects();
  const managed = (me.data?.organizations ?? []).filter((o) => canManage(o.role));
  return (
    <main className="standalone">
      <PageHeader title="Projects" />
      <QueryView
        query={projects}
        isEmpty={(list) => list.length === 0}
        empty={<Empty title="No projects yet">Create the first one below.</Empty>}
      >
        {(list) => <ProjectList projects={list} me={me.data ?? null} />}
      </QueryView>
      {managed.length > 0 && <CreateProject orgs={managed} />}
    </main>
  );
}

function ProjectList({ projects, me }: { projects: ProjectView[]; me: Me | null }) {
  const orgName = (id: string) => me?.organizations.find((o) => o.id === id)?.name ?? id;
  return (
    <ul className="card-list">
      {projects.map((p) => (
        <li key={p.id}>
          <Link href={projectPath(p.id, "overview")}>{p.name}</Link>
          <span className="muted"> · {orgName(p.orgId)}</span>
        </li>
      ))}
    </ul>
  );
}

export function CreateProject({ orgs }: { orgs: { id: string; name: string }[] }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [orgId, setOrgId] = useState(orgs[0]?.id ?? "");
  const create = useMutation({
    mutationFn: () => api<ProjectView>("/api/projects", { method: "POST", body: { name, orgId } }),
    onSuccess: async (project) => {
      await client.invalidateQueries({ queryKey: PROJECTS_KEY });
      navigate(projectPath(project.id, "overview"));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="Create a project">
      <h2>Create a project</h2>
      <TextField
        label="Name"
        name="name"
        error={create.error}
        value={name}
        onChange={setName}
        required
        maxLength={100}
      />
      {orgs.length > 1 && (
        <Field label="Organization" name="orgId" error={create.error}>
          {(props) => (
            <select {...props} value={orgId} onChange={(e) => setOrgId(e.target.value)}>
              {orgs.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {create.isError && <ProblemMessage error={create.error} />}
      <button type="submit" className="button primary" disabled={create.isPending}>
        Create project
      </button>
    </form>
  );
}
